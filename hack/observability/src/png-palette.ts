/**
 * Makes Chromium's truecolour screenshot a palette PNG (at most 256 colours, deflated at level 9)
 * so that the committed picture stays small: the page has few colours besides the antialiasing of
 * its text and lines. The 256 most frequent colours are kept; any other pixel takes the nearest of
 * them. Reads 8-bit RGB or RGBA, non-interlaced PNGs only (what Chromium writes).
 */
import { deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

function chunks(png: Buffer): { type: string; data: Buffer }[] {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  const found: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    found.push({ type: png.toString("latin1", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The pixels as 0xRRGGBB numbers, row by row (alpha dropped: the page is opaque). */
function decode(png: Buffer): { width: number; height: number; pixels: Uint32Array } {
  const all = chunks(png);
  const header = all.find((chunk) => chunk.type === "IHDR")?.data;
  if (!header) throw new Error("PNG without IHDR");
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  const [depth, colourType, interlace] = [header[8], header[9], header[12]];
  if (depth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${depth}, colour type ${colourType}, interlace ${interlace}`);
  }
  const bpp = colourType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(all.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data)));
  const stride = width * bpp;
  const pixels = new Uint32Array(width * height);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const row = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i += 1) {
      const left = i >= bpp ? (row[i - bpp] ?? 0) : 0;
      const up = previous[i] ?? 0;
      const corner = i >= bpp ? (previous[i - bpp] ?? 0) : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, corner)][filter ?? 0] ?? 0;
      row[i] = ((row[i] ?? 0) + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 1) {
      const i = x * bpp;
      pixels[y * width + x] = ((row[i] ?? 0) << 16) | ((row[i + 1] ?? 0) << 8) | (row[i + 2] ?? 0);
    }
    previous = row;
  }
  return { width, height, pixels };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `png` as an indexed-colour PNG of at most 256 colours. */
export function toPalettePng(png: Buffer): Buffer {
  const { width, height, pixels } = decode(png);
  const counts = new Map<number, number>();
  for (const pixel of pixels) counts.set(pixel, (counts.get(pixel) ?? 0) + 1);
  const palette = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 256)
    .map(([colour]) => colour);
  const index = new Map(palette.map((colour, i) => [colour, i]));
  const nearest = (colour: number): number => {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    palette.forEach((candidate, i) => {
      const dr = ((colour >> 16) & 0xff) - ((candidate >> 16) & 0xff);
      const dg = ((colour >> 8) & 0xff) - ((candidate >> 8) & 0xff);
      const db = (colour & 0xff) - (candidate & 0xff);
      const distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
      if (distance < bestDistance) [best, bestDistance] = [i, distance];
    });
    index.set(colour, best);
    return best;
  };
  // Filter 0 (none) per row: indices of flat areas repeat, which deflate packs best.
  const raw = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const colour = pixels[y * width + x] ?? 0;
      raw[y * (width + 1) + 1 + x] = index.get(colour) ?? nearest(colour);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8); // 8-bit indices, palette colour, deflate, adaptive filters, no interlace
  const plte = Buffer.alloc(palette.length * 3);
  for (const [i, colour] of palette.entries()) {
    plte.set([(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff], i * 3);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("PLTE", plte),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
