"""A game's cards beyond its hand-edited card files: the versions each card was printed in and its
errata (``printings``), the short codes its printed QR codes hold (``short_codes``), and its
translations into other languages (``translations``).
"""
