// Reading QR codes back the way a phone would: from the pixels of a screenshot (pngjs + jsQR),
// or from the block characters `tas` prints (each character cell two modules tall).
import jsqr from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS whose typings declare an ES default export: under NodeNext the function is `.default`.
const jsQR = jsqr.default;

/** The text of the QR code in a PNG image; null when none is found. */
export function decodePng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data ?? null;
}

/** Which of a cell's two modules are dark, as `tas` draws them for a dark terminal (light drawn). */
const DARK: Readonly<Record<string, readonly [boolean, boolean]>> = { ' ': [true, true], '▄': [true, false], '▀': [false, true], '█': [false, false] };

/** The text of a QR code drawn with block characters, scaled to pixels and decoded. */
export function decodeBlocks(lines: readonly string[]): string | null {
  const rows: boolean[][] = [];
  for (const line of lines) {
    const cells = [...line];
    rows.push(cells.map((c) => DARK[c]?.[0] ?? false), cells.map((c) => DARK[c]?.[1] ?? false));
  }
  const scale = 6;
  const width = Math.max(...rows.map((r) => r.length)) * scale;
  const height = rows.length * scale;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  rows.forEach((row, y) => row.forEach((dark, x) => {
    if (!dark) return;
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = ((y * scale + dy) * width + x * scale + dx) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }));
  return jsQR(data, width, height)?.data ?? null;
}
