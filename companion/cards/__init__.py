"""The card pages: what a printed QR code opens (a card's rulings, errata, glossary), finding a
card, the same pages kept offline on the phone and exported as a static site."""
