"""placeholder"""
import click


@click.command("list")
def list_scenes() -> None:
    """List scenes."""
