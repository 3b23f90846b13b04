"""A small PNG reader for tests that look at the pictures voevoda draws (8-bit RGBA, as resvg
writes them): the image as a NumPy array of shape (height, width, 4)."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import numpy.typing as npt


def read_png(data: bytes) -> npt.NDArray[np.uint8]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = 0
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos:pos + 4])
        kind, chunk = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert (depth, colour, interlace) == (8, 6, 0), "expected 8-bit RGBA, not interlaced"
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + size
    raw = zlib.decompress(idat)
    bpp, stride = 4, width * 4
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=start + 1).astype(np.int64)
        if kind == 0:
            row = line
        elif kind == 1:
            row = np.cumsum(line.reshape(width, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:
            row = (line + prev) % 256
        else:
            row_list = [0] * stride
            src, up = line.tolist(), prev.tolist()
            for i in range(stride):
                left = row_list[i - bpp] if i >= bpp else 0
                upper = up[i]
                if kind == 3:
                    row_list[i] = (src[i] + (left + upper) // 2) & 255
                else:
                    corner = up[i - bpp] if i >= bpp else 0
                    p = left + upper - corner
                    pa, pb, pc = abs(p - left), abs(p - upper), abs(p - corner)
                    pred = left if pa <= pb and pa <= pc else upper if pb <= pc else corner
                    row_list[i] = (src[i] + pred) & 255
            row = np.asarray(row_list, dtype=np.int64)
        out[y] = row
        prev = row
    return out.reshape(height, width, 4)
