"""Pillow doing photowire's two renditions, the fast way Pillow allows.

    python3 pillow_lane.py OUT_DIR FILE...

draft() asks libjpeg for DCT-domain scaling (the same shrink-on-load libvips uses: 24 MP to
3000x2000 for a 1600 px box), then the preview is made, saved, and the thumbnail is made from the
preview's pixels, as photowire does. Same sizes and qualities: preview fit in 1600x1600 JPEG q82
with optimised Huffman tables, thumb fit in 400x400 WebP q75 method 2; never enlarged; upright.
Pillow's own thumbnail() resampling (bicubic with reducing_gap) is kept: it is how Pillow is used.
Prints one JSON line: photos and the time from the first open to the last save.
"""
import json
import os
import sys
import time

from PIL import Image, ImageOps


def main() -> None:
    out_dir, files = sys.argv[1], sys.argv[2:]
    t0 = time.perf_counter()
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        with Image.open(path) as im:
            im.draft("RGB", (1600, 1600))
            im = ImageOps.exif_transpose(im)
            if im.mode != "RGB":
                im = im.convert("RGB")
            im.thumbnail((1600, 1600))
            im.save(os.path.join(out_dir, stem + ".preview.jpg"), "JPEG", quality=82, optimize=True)
            im.thumbnail((400, 400))
            im.save(os.path.join(out_dir, stem + ".thumb.webp"), "WEBP", quality=75, method=2)
    print(json.dumps({"photos": len(files), "busyMs": (time.perf_counter() - t0) * 1000}))


if __name__ == "__main__":
    main()
