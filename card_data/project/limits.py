"""The limits in force: how many bytes of card data printkit reads (per file, and per game,
checked before parsing), and the bounds of artwork and templates; where they were set, and how a
designer raises them.

Reading card data costs about 28 bytes of memory per byte of YAML and most of a second per
megabyte (a 50 MB card file ran ``printkit validate`` for 27 minutes at 3.6 GB before it was
killed), so every file's size on disk is checked before a byte of it is parsed:

- one YAML file (cards, decks, game.yaml, glossary, rulings, printings, translations, kit.yaml,
  reference.yaml, layout templates; and a spreadsheet ``printkit import`` reads) may hold at
  most :data:`DEFAULT_FILE_MB` megabytes;
- all the YAML files of one game together (see :func:`card_data.reading.game_files.game_data_files`) at
  most :data:`DEFAULT_GAME_MB`.

Both are far above real card data: the largest bundled file is 32 kB, the largest bundled game
under 130 kB; a game of 10,000 cards (``benchmarks/bench_build.py``) is 8 to 17 MB, in one file
or in many. Artwork (:mod:`printkit.sheets.artwork.art`) and templates
(:mod:`printkit.sheets.templating.template_limits`) read theirs from the :class:`Limits` in force
(:func:`current_limits`).

A user raises any of them in the project's ``printkit.toml`` (the one every printkit command
and the companion find from the current folder up, see :mod:`card_data.project.base_url`), each in its
own unit and up to its own ceiling (:data:`card_data.project.limit_keys.LIMIT_KEYS`)::

    [printkit.limits]
    file_mb = 50               # one YAML file, megabytes of 10**6 bytes
    game_mb = 400              # all of one game's YAML files together
    art_megapixels = 80        # raster art or an icon anywhere
    art_dpi = 2400             # raster art for its placed size
    template_seconds = 10      # processor seconds of one template render
    template_characters = 200_000  # one render's output, and its largest value
"""

from __future__ import annotations

import contextlib
import errno
import functools
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from card_data.project.base_url import LIMITS_TABLE, ConfigError, find_config_file, read_config
from card_data.project.limit_keys import (
    ART_DPI,
    ART_MEGAPIXELS,
    FILE_MB,
    GAME_MB,
    LIMIT_KEYS,
    TEMPLATE_CHARACTERS,
    TEMPLATE_SECONDS,
)

MB = 1_000_000
"""Bytes in the megabytes the limits are given in."""

DEFAULT_FILE_MB = FILE_MB.default
"""Megabytes one YAML file may hold unless ``printkit.toml`` says otherwise: 10,000 cards of
the wordiest bundled game (long rulings) in one file are 17 MB."""

DEFAULT_GAME_MB = GAME_MB.default
"""Megabytes all of one game's YAML files may hold together unless ``printkit.toml`` says
otherwise: six times a game of 10,000 cards."""


@dataclass(frozen=True)
class Limits:
    """The limits in force and where they were set (each key's unit, default and reason:
    :mod:`card_data.project.limit_keys`). Picklable: a build sends it to its worker processes.

    Attributes:
        file_mb: megabytes (10**6 bytes) one YAML file may hold.
        game_mb: megabytes all of one game's YAML files may hold together.
        art_megapixels: millions of pixels raster art or an icon may have anywhere.
        art_dpi: pixels per inch raster art may have for its placed size (art of up to 4
            megapixels is taken whatever its box).
        template_seconds: processor seconds one template render may take.
        template_characters: characters one template render may output, and the largest
            value (characters, or items of a list) it may make.
        source: the ``printkit.toml`` that set them, or ``"default"``.
    """

    file_mb: float = FILE_MB.default
    game_mb: float = GAME_MB.default
    art_megapixels: float = ART_MEGAPIXELS.default
    art_dpi: float = ART_DPI.default
    template_seconds: float = TEMPLATE_SECONDS.default
    template_characters: int = TEMPLATE_CHARACTERS.default
    source: str = "default"

    @property
    def file_bytes(self) -> int:
        return int(self.file_mb * MB)

    @property
    def game_bytes(self) -> int:
        return int(self.game_mb * MB)

    @property
    def art_pixels(self) -> int:
        """:attr:`art_megapixels` in pixels."""
        return int(self.art_megapixels * 1_000_000)

    def raise_hint(self, key: str) -> str:
        """How to raise the limit ``key`` (a key of :data:`~card_data.project.limit_keys.LIMIT_KEYS`),
        naming the file to edit and how far it goes: ``"raise the limit: KEY under
        [printkit.limits] in FILE (up to MOST UNIT)"``."""
        where = "printkit.toml" if self.source == "default" else self.source
        spec = LIMIT_KEYS[key]
        return f"raise the limit: {key} under [printkit.limits] in {where} (up to {spec.most:,} {spec.unit})"


DEFAULT_LIMITS = Limits()


@functools.lru_cache(maxsize=8)
def _limits_of(path: str, _mtime_ns: int, _size: int) -> Limits:
    # Keyed on the file's mtime and size too: an edited printkit.toml is read again.
    table = read_config(Path(path)).get(LIMITS_TABLE, {})
    assert isinstance(table, dict)  # read_config checked its keys and values
    return Limits(**table, source=path)


def configured_limits(start: Path | None = None) -> Limits:
    """The limits ``[printkit.limits]`` of the ``printkit.toml`` found from ``start`` (default:
    the current folder) up sets, the defaults for what it leaves out (or without a file).

    Raises :class:`~card_data.project.base_url.ConfigError` (``FILE:LINE: message``) for a broken
    ``printkit.toml``.
    """
    path = find_config_file(start)
    if path is None:
        return DEFAULT_LIMITS
    try:
        stat = path.stat()
    except OSError:
        return _limits_of(str(path), 0, 0)  # read_config says why it cannot be read
    return _limits_of(str(path), stat.st_mtime_ns, stat.st_size)


_IN_FORCE: ContextVar[Limits | None] = ContextVar("printkit_limits", default=None)


def current_limits() -> Limits:
    """The :class:`Limits` a :func:`limits_in_force` block put in force in this thread, else
    :data:`DEFAULT_LIMITS` (a new thread, or a worker process, starts with the defaults)."""
    return _IN_FORCE.get() or DEFAULT_LIMITS


@contextlib.contextmanager
def limits_in_force(limits: Limits | None = None) -> Iterator[Limits]:
    """``with limits_in_force(limits) as limits:`` makes ``limits`` (default: the project's,
    :func:`quiet_limits`) what :func:`current_limits` gives in this thread until the block ends:
    what a build, a preview or a worker process's deck checks artwork and templates against.
    Yields the limits put in force."""
    if limits is None:
        limits = quiet_limits()
    token = _IN_FORCE.set(limits)
    try:
        yield limits
    finally:
        _IN_FORCE.reset(token)


class FileTooLarge(Exception):
    """A file larger than the limit for one file: ``size`` (bytes, ``None`` if only known to
    be over), ``limits`` in force; ``message`` says so and how to fix it."""

    def __init__(self, size: int | None, limits: Limits):
        self.size, self.limits = size, limits
        said = f"is {size:,} bytes" if size is not None else "holds more than that"
        self.message = (f"the file {said}; one file may hold at most {limits.file_mb:g} MB "
                        f"({limits.file_bytes:,} bytes): split it into smaller files (cards/ and decks/ "
                        f"take any number of them), or {limits.raise_hint('file_mb')}")
        super().__init__(self.message)


def game_too_large_message(total: int, largest: list[tuple[Path, int]], limits: Limits) -> str:
    """What to say about a game whose YAML files hold ``total`` bytes together, over
    ``limits.game_bytes``; ``largest``: its largest files with their sizes, largest first."""
    files = ", ".join(f"{path.name} {size:,} bytes" for path, size in largest)
    return (f"the game's YAML files hold {total:,} bytes together (largest: {files}); one game may hold at "
            f"most {limits.game_mb:g} MB ({limits.game_bytes:,} bytes): remove what the game does not need, "
            f"or {limits.raise_hint('game_mb')}")


def read_limited(path: Path, limits: Limits | None = None) -> bytes:
    """The bytes of ``path``, refused unread past ``limits.file_bytes`` (default: the
    :func:`configured_limits`, or the defaults where ``printkit.toml`` is broken: every
    command reports that before it reads card data, :func:`card_data.loader.check_database`
    as a problem).

    The size on disk is checked first, and the read stops one byte past the limit, so a file
    that grows meanwhile is bounded too. Only a regular file is read: a named pipe would wait
    for a writer for ever, a device (``/dev/zero``) never ends. Raises :class:`FileTooLarge`,
    or ``OSError`` when the file cannot be read or is not a regular file.
    """
    if limits is None:
        limits = quiet_limits()
    status = Path(path).stat()
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a folder, a named pipe or a device)", str(path))
    if status.st_size > limits.file_bytes:
        raise FileTooLarge(status.st_size, limits)
    with open(path, "rb") as fh:
        data = fh.read(limits.file_bytes + 1)
    if len(data) > limits.file_bytes:
        raise FileTooLarge(None, limits)
    return data


def quiet_limits(start: Path | None = None) -> Limits:
    """:func:`configured_limits`, or the defaults when ``printkit.toml`` is broken (for readers
    that have no way to report it; someone else does, see :func:`read_limited`)."""
    try:
        return configured_limits(start)
    except ConfigError:
        return DEFAULT_LIMITS
