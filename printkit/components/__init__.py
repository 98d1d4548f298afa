"""Everything printed besides the card sheets: reference cards, boards and mats tiled across
pages, token sheets and score pads."""
