"""placeholder"""
import click


@click.command("render")
def render() -> None:
    """Render."""
