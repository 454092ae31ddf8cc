"""Make ``workbook.png``, the README's picture of the companion workbook, from the current code.

    .venv/bin/python media/readme/workbook.py [SHEET]

``attnvid workbook`` writes the default lesson's workbook; LibreOffice Calc (headless, a
private profile) prints one sheet of it to PDF, with the cached values the file carries
(the other sheets are hidden in a copy first: Calc does not print hidden sheets); Poppler's
``pdftoppm`` turns the first page into a PNG, cropped to what is on it. Needs
``libreoffice-calc-nogui`` and ``poppler-utils`` (Debian); Calc draws Calibri as Carlito
when ``fonts-crosextra-carlito`` is installed.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
ATTNVID = str(Path(sys.executable).parent / "attnvid")
DPI = 110


def only_sheet(xlsx: bytes, keep: str) -> bytes:
    """``xlsx`` with every sheet but ``keep`` hidden (and ``keep`` the active one)."""
    src, out = zipfile.ZipFile(io.BytesIO(xlsx)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/workbook.xml":
                names = re.findall(rb'<sheet [^>]*?name="([^"]*)"', data)
                if keep.encode() not in names:
                    sys.exit(f"workbook.py: no sheet {keep!r}; there are {[n.decode() for n in names]}")
                data = re.sub(rb'(<sheet [^>]*?name="([^"]*)"[^>]*?state=")visible(")',
                              lambda m: m.group(1) + (b"visible" if m.group(2) == keep.encode() else b"hidden") + m.group(3), data)
                data = re.sub(rb'activeTab="\d+"', b'activeTab="%d"' % names.index(keep.encode()), data)
                data = data.replace(b'firstSheet="0"', b'firstSheet="%d"' % names.index(keep.encode()))
            dst.writestr(item, data)
    return out.getvalue()


def crop(png: Path) -> Image.Image:
    """The page without its white margins (a few pixels kept)."""
    img = Image.open(png).convert("RGB")
    box = ImageChops.difference(img, Image.new("RGB", img.size, (255, 255, 255))).getbbox()
    if box is None:
        sys.exit("workbook.py: the page is empty")
    pad = 12
    return img.crop((max(0, box[0] - pad), max(0, box[1] - pad), min(img.width, box[2] + pad), min(img.height, box[3] + pad)))


def main() -> None:
    sheet = sys.argv[1] if len(sys.argv) > 1 else "Softmax"
    for tool in ("soffice", "pdftoppm"):
        if shutil.which(tool) is None:
            sys.exit(f"workbook.py: {tool} is missing; apt-get install libreoffice-calc-nogui poppler-utils")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        r = subprocess.run([ATTNVID, "workbook", "--media", str(work / "media")], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"workbook.py: attnvid workbook failed: {r.stderr.strip()}")
        xlsx = Path(r.stdout.strip().splitlines()[-1])
        one = work / "sheet.xlsx"
        one.write_bytes(only_sheet(xlsx.read_bytes(), sheet))
        subprocess.run(["soffice", f"-env:UserInstallation={(work / 'profile').as_uri()}", "--headless", "--norestore",
                        "--convert-to", "pdf", "--outdir", str(work), str(one)], check=True, capture_output=True, timeout=180)
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", "1", "-l", "1", str(work / "sheet.pdf"), str(work / "page")],
                       check=True)
        crop(next(work.glob("page*.png"))).save(HERE / "workbook.png", optimize=True)
    print(HERE / "workbook.png")


if __name__ == "__main__":
    main()
