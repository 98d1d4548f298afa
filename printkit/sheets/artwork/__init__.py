"""Artwork: which image files a card may name, resampled to print resolution and cached, and a
game's own print assets checked once per build."""
