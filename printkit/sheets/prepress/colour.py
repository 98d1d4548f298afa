"""Colour management for print shops: RGB colours and artwork converted to CMYK through one ICC
profile, by littlecms (Pillow's :mod:`PIL.ImageCms`), never by a formula of our own.

The profile is basICColor's *ISO Coated v2 300 %* (``icc/ISOcoated_v2_300_bas.icc``, zlib
licence, see ``icc/README.md``): the FOGRA39 characterisation (ISO 12647-2 offset on coated
paper), the condition European print shops and most online printers proof against, limited to
300 % total ink. A PDF/X file names the same profile as its OutputIntent, so the CMYK numbers in
the file mean exactly what the shop's press is set up for.

Rendering intent: relative colorimetric with black-point compensation, for flat colours and
artwork alike. Card colours are mostly flat fills well inside the press gamut; relative
colorimetric prints those as designed (perceptual would shift in-gamut colours too), clips only
the few out-of-gamut ones (saturated screen blues and greens) to the nearest printable colour,
and black-point compensation keeps the shadows of artwork from blocking up. It is the usual
prepress choice (Adobe's colour-settings presets default to it).
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

PROFILE_PATH = Path(__file__).parent.parent / "icc" / "ISOcoated_v2_300_bas.icc"
"""The output profile (ICC v2, class ``prtr``, CMYK)."""
OUTPUT_CONDITION_IDENTIFIER = "FOGRA39"
"""The characterisation the profile describes, as registered at the ICC (``RegistryName``)."""
OUTPUT_CONDITION = "Offset printing, ISO 12647-2, coated paper (PT 1/2), 300 % total ink"
PROFILE_INFO = "ISO Coated v2 300% (basICColor)"
REGISTRY_NAME = "http://www.color.org"


@cache
def profile_bytes() -> bytes:
    """The output profile's bytes (what a PDF/X file embeds as ``DestOutputProfile``).

    Raises ``OSError`` if the installed package lacks it."""
    return PROFILE_PATH.read_bytes()


@cache
def _rgb_to_cmyk():
    from PIL import ImageCms  # only here: most builds are RGB and never need littlecms

    output = ImageCms.ImageCmsProfile(PROFILE_PATH.open("rb"))
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), output, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=4096)
def cmyk_from_rgb(red: int, green: int, blue: int) -> tuple[float, float, float, float]:
    """An sRGB colour (``0..255`` each) as ``(c, m, y, k)`` fractions ``0..1`` for FOGRA39.

    Cached per colour: a build sets the same few colours thousands of times."""
    from PIL import Image, ImageCms

    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (red, green, blue)), _rgb_to_cmyk()).getpixel((0, 0))
    return tuple(v / 255 for v in pixel)


def cmyk_image(image):
    """A Pillow image as ``(CMYK image, alpha or None)`` converted through the profile.

    The alpha channel (``RGBA``, ``LA``, or a palette's transparent index) is returned apart, as
    a mode ``L`` image, since CMYK has no alpha; a PDF carries it as the image's soft mask.
    """
    from PIL import ImageCms

    alpha = None
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA"):
        alpha = image.getchannel("A")
    if image.mode == "CMYK":
        return image, alpha
    rgb = image.convert("RGB")
    return ImageCms.applyTransform(rgb, _rgb_to_cmyk()), alpha
