"""Print-shop presets: each shop's published image size, bleed and safe area for poker cards.

Sources (looked up 2026-11-23; the README's "Per-card exports and print shops" cites them too):

- The Game Crafter, poker deck: 825 x 1125 px at 300 dpi; trim 2.5 x 3.5 in; 1/8 in bleed
  and a further 1/8 in safe zone ("We print everything at 300DPI"; "we require 1/8" for bleed
  and 1/8" for safe zone"), https://help.thegamecrafter.com/article/33-dpi-dots-per-inch ; RGB
  PNG or JPG, CMYK images are rejected, https://help.thegamecrafter.com/article/39-templates .
  Squib's layout for it agrees (andymeneely/squib, lib/squib/layouts/thegamecrafter/deck/poker.yml).
- MakePlayingCards, poker card (63 x 88 mm listed, 2.5 x 3.5 in printed): images at least
  822 x 1122 px at 300 dpi, https://www.makeplayingcards.com/pops/faq-photo.html ; 36 px
  (0.12 in) bleed a side and the safe area 36 px inside the trim, as mpc-autofill uses them
  (chilli-axe/mpc-autofill, frontend/src/common/constants.ts, BleedEdgeMM = 0.12 * 25.4).

Neither shop enforces file names: The Game Crafter names each uploaded card after its file's
name, MakePlayingCards takes one image per unique face and one back for all (or one per card).
"""

from __future__ import annotations

from dataclasses import dataclass

from card_data.schema import POKER_HEIGHT_MM, POKER_WIDTH_MM

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class ShopPreset:
    """One print shop's card image spec.

    Attributes:
        name: the ``--preset`` value and the output folder, e.g. ``"tgc-poker"``.
        label: the shop and product for people.
        trim_w_mm, trim_h_mm: the card's trim size the spec is for.
        bleed_px: bleed on each side at ``dpi``.
        safe_px: the safe area's inset from the trim at ``dpi``.
        dpi: pixels per inch the shop prints at.
        image_w_px, image_h_px: the image size the shop expects (trim + 2 x bleed).
        sources: URLs of the published spec.
    """

    name: str
    label: str
    trim_w_mm: float
    trim_h_mm: float
    bleed_px: float
    safe_px: float
    dpi: int
    image_w_px: int
    image_h_px: int
    sources: tuple[str, ...]

    @property
    def bleed_mm(self) -> float:
        """Bleed on each side in millimetres."""
        return self.bleed_px / self.dpi * MM_PER_INCH

    @property
    def safe_mm(self) -> float:
        """Safe area's inset from the trim in millimetres."""
        return self.safe_px / self.dpi * MM_PER_INCH

    def fits_size(self, width_mm: float, height_mm: float, tolerance_mm: float = 0.05) -> bool:
        """Whether a card of ``width_mm`` x ``height_mm`` is the size this preset is for."""
        return abs(width_mm - self.trim_w_mm) <= tolerance_mm and abs(height_mm - self.trim_h_mm) <= tolerance_mm


TGC_POKER = ShopPreset(
    name="tgc-poker", label="The Game Crafter poker deck", trim_w_mm=POKER_WIDTH_MM, trim_h_mm=POKER_HEIGHT_MM,
    bleed_px=37.5, safe_px=37.5, dpi=300, image_w_px=825, image_h_px=1125,
    sources=("https://help.thegamecrafter.com/article/33-dpi-dots-per-inch",
             "https://help.thegamecrafter.com/article/39-templates"),
)
MPC_POKER = ShopPreset(
    name="mpc-poker", label="MakePlayingCards poker card", trim_w_mm=POKER_WIDTH_MM, trim_h_mm=POKER_HEIGHT_MM,
    bleed_px=36, safe_px=36, dpi=300, image_w_px=822, image_h_px=1122,
    sources=("https://www.makeplayingcards.com/pops/faq-photo.html",
             "https://github.com/chilli-axe/mpc-autofill/blob/master/frontend/src/common/constants.ts"),
)

PRESETS: dict[str, ShopPreset] = {p.name: p for p in (TGC_POKER, MPC_POKER)}
"""Every preset by ``--preset`` name."""
