"""Rulings: their stable ids, which translations name them by and their links point at
(``ruling_ids``), and each ruling as a record with the cards it concerns, for the rulings
pages and search (``ruling_records``).
"""
