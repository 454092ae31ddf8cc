"""``attnvid doctor``: check every part a render needs, and print how to fix what is missing."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from attnstage.settings import SceneSettings

from ..options import language_option, media_option, settings_options, voice_option
from ..render.runtime import doctor_checks


@click.command("doctor")
@settings_options(voice_option("The voice you will render with (espeak-ng is needed only for espeak, Piper and its "
                               "model only for piper)."), language_option)
@media_option("The folder renders will write to.")
def doctor(settings: SceneSettings, media: Path) -> None:
    """Check Python, Manim, cairo/Pango, fonts, espeak-ng, Piper, disk and media/; print how to fix what is missing.

    With --language, also the CJK font (Chinese) and whether the voice speaks that language.

    Exit status 0 only when every needed part is present (warnings do not count).
    """
    checks = doctor_checks(settings.voice, media, settings.language or "en")
    for c in checks:
        click.echo(f"{c.status:<8} {c.message()}")
    missing = [c.name for c in checks if c.needed and not c.ok]
    if missing:
        click.echo(f"doctor: missing {', '.join(missing)}; run the fix commands above, then attnvid doctor again",
                   err=True)
        sys.exit(1)
    click.echo("doctor: every needed part is present", err=True)
