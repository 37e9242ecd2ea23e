import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { textImage, verticalTextImage } from '../../../../test/fixtures/text-images.js';
import { decodeImage } from '../../image/decode.js';
import { createOcrEngine, type OcrEngine } from '../ocr-engine.js';
import type { TextLine } from '../ocr.types.js';
import { readText } from './text-reader.js';

/** Each OCR type end to end on rendered images: engine, grammar, correction. */
describe('text readers', () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine();
  });
  const read = async (type: Parameters<typeof readText>[1], bytes: Buffer) => readText(engine, type, await decodeImage(bytes));
  /** The recogniser's lines as a fake engine gives them, so that only the readers' choices are
   * tested; a row cut and read again reads nothing. */
  const nothing = { text: '', confidence: 0, charConfidences: [], alternatives: [] };
  const engineWith = (lines: TextLine[]) => ({ readLines: async () => lines, recognizeCrops: async (crops: unknown[]) => crops.map(() => nothing) }) as unknown as OcrEngine;
  /** A photo the fake engine never looks at. */
  const blank = { data: Buffer.alloc(3), width: 1, height: 1, channels: 3 as const };
  /** A flat line read at one confidence throughout, boxed upright from (x0, y0) to (x1, y1). */
  const flatLine = (text: string, confidence: number, x0: number, y0: number, x1: number, y1: number): TextLine => ({
    text, confidence, charConfidences: [...text].map(() => confidence), alternatives: [...text].map((char) => [{ char, prob: confidence }]),
    box: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }], orientation: 'horizontal', layout: 'upright',
  });

  it('vin: reads a VIN among other text, validated by its check digit', async () => {
    const img = await textImage([
      { text: 'MFD BY GENERAL MOTORS', x: 80, y: 150, size: 40 },
      { text: 'VIN 1M8GDM9AXKP042788', x: 80, y: 300, size: 56 },
      { text: 'GVWR 2948 KG', x: 80, y: 450, size: 40 },
    ]);
    expect(await read('vin', img)).toEqual([{ value: '1M8GDM9AXKP042788', confidence: expect.any(Number), orientation: 'horizontal', box: expect.objectContaining({ xmin: expect.any(Number) }) }]);
  });

  it('vin: where the detector boxes nothing of a number, looks again with thin bands across its glyphs filled', async () => {
    // A stencilled number, as a text detector sees it: dark strokes cut by a light band (rows
    // 40-41) that breaks them into pieces it does not box. The fake engine boxes the number only
    // in a picture whose band is filled.
    const width = 400, height = 100;
    const data = Buffer.alloc(width * height * 3, 230);
    for (let y = 20; y < 70; y++) if (y < 40 || y > 41) for (let x = 20; x < 380; x += 20) data.fill(20, (y * width + x) * 3, (y * width + x + 8) * 3);
    const photo = { data, width, height, channels: 3 as const };
    const vinLine: TextLine = {
      text: '1M8GDM9AXKP042788', confidence: 0.95, charConfidences: Array(17).fill(0.95), alternatives: [...'1M8GDM9AXKP042788'].map((char) => [{ char, prob: 0.95 }]),
      box: [{ x: 20, y: 20 }, { x: 380, y: 20 }, { x: 380, y: 70 }, { x: 20, y: 70 }], orientation: 'horizontal', layout: 'upright',
    };
    const looked: boolean[] = [];
    const bandFilled = (img: { data: Buffer; width: number }) => img.data[(40 * img.width + 20) * 3]! < 100;
    const fake = {
      readLines: async (img: { data: Buffer; width: number }) => {
        looked.push(bandFilled(img));
        return bandFilled(img) ? [vinLine] : [];
      },
      recognizeCrops: async (crops: unknown[]) => crops.map(() => ({ text: '', confidence: 0, charConfidences: [], alternatives: [] })),
    } as unknown as OcrEngine;
    expect((await readText(fake, 'vin', photo)).map((r) => r.value)).toEqual(['1M8GDM9AXKP042788']);
    expect(looked).toEqual([false, true]);
  });

  it('vin: joins the pieces of a VIN side by side, never a caption above it into the number', async () => {
    const line = (text: string, x: number, y: number, w: number, h: number): TextLine => ({
      text, confidence: 0.95, charConfidences: [...text].map(() => 0.95), alternatives: [...text].map((char) => [{ char, prob: 0.95 }]),
      box: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }], orientation: 'horizontal', layout: 'upright',
    });
    // Where no line holds a VIN, the row around a piece of one is read again: here it reads nothing.
    // A box split at a sticker's edge: two pieces on one row.
    const split = await readText(engineWith([line('1M8GDM9A', 100, 300, 400, 50), line('XKP042788', 520, 302, 450, 50)]), 'vin', blank);
    expect(split.map((r) => r.value)).toEqual(['1M8GDM9AXKP042788']);
    // The number's first character lost (a 16-character line) under the caption "CHASSIS NO":
    // the caption's last letters and the number make a 17-character window that passes for a
    // VIN from outside North America. No VIN is better than that one.
    const captioned = await readText(engineWith([line('CHASSIS NO', 400, 200, 300, 40), line('HG3K88R113854697', 160, 260, 800, 60)]), 'vin', blank);
    expect(captioned).toEqual([]);
    // A number stamped much larger than its caption ("V.I.N." just above its top edge): the
    // caption is no part of its line, though their middles are closer than the number is tall.
    const stamped = await readText(engineWith([line('V.I.N.', 437, 293, 113, 42), line('WBAKTJ0S7ZR825883', 179, 334, 647, 137)]), 'vin', blank);
    expect(stamped.map((r) => r.value)).toEqual(['WBAKTJ0S7ZR825883']);
    // A caption alone is no VIN, even where its I, O and last letters made digits would pass
    // for one (TEH1CLEDENTF1C471): the number under it was not read.
    const words = await readText(engineWith([line('TEHICLEDENTFICATION WO', 358, 372, 349, 71)]), 'vin', blank);
    expect(words).toEqual([]);
    // Seventeen characters cut out of a longer word: a VIN run into a neighbouring character
    // where its check digit holds as read, else a misread line's guess (a stroke read as one
    // more character), which is no answer.
    const runOn = await readText(engineWith([line('1M8GDM9AXKP0427885', 100, 300, 900, 60)]), 'vin', blank);
    expect(runOn.map((r) => r.value)).toEqual(['1M8GDM9AXKP042788']);
    const guess = await readText(engineWith([line('WVWZZZ1JZXW0000012', 100, 300, 900, 60)]), 'vin', blank);
    expect(guess).toEqual([]);
  });

  it('vin: takes the second reader\'s reading of a line where only it read seventeen characters', async () => {
    const line = (text: string, confidence: number) => ({
      text, confidence, charConfidences: [...text].map(() => confidence), alternatives: [...text].map((char) => [{ char, prob: confidence }]),
    });
    // PP-OCR read an embossed X as a slash and merged W and U (second generator, 2026-12-06); the
    // identifier reader read all seventeen, surely enough, and the two could not be fused.
    const box: TextLine['box'] = [{ x: 100, y: 300 }, { x: 900, y: 300 }, { x: 900, y: 360 }, { x: 100, y: 360 }];
    const ppocr: TextLine = { ...line('JHN/YAM09YK956398', 0.88), box, orientation: 'horizontal', layout: 'upright' };
    expect(await readText(engineWith([ppocr]), 'vin', blank)).toEqual([]);
    const both = await readText(engineWith([{ ...ppocr, otherReading: line('JHMXYAWU9YK956398', 0.89) }]), 'vin', blank);
    expect(both.map((r) => r.value)).toEqual(['JHMXYAWU9YK956398']);
  });

  it("vin: where the text box holds only the number's last characters, the row around it is read again whole", async () => {
    const line = (text: string, x: number, y: number, w: number, h: number): TextLine => ({
      text, confidence: 0.96, charConfidences: [...text].map(() => 0.96), alternatives: [...text].map((char) => [{ char, prob: 0.96 }]),
      box: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }], orientation: 'horizontal', layout: 'upright',
    });
    const asked: Array<{ width: number; height: number }> = [];
    const engineWith = (lines: TextLine[]) => ({
      readLines: async () => lines,
      recognizeCrops: async (crops: Array<{ width: number; height: number }>) => {
        asked.push(...crops.map(({ width, height }) => ({ width, height })));
        const { text, confidence, charConfidences, alternatives } = line('TMBMVGDTKHT913435', 0, 0, 1, 1);
        return [{ text, confidence, charConfidences, alternatives }];
      },
    }) as unknown as OcrEngine;
    const photo = { data: Buffer.alloc(1032 * 773 * 3), width: 1032, height: 773, channels: 3 as const };
    // A barred stencil font: the detector boxed "T913435" and "CHASSIS NO" above it.
    const partial = await readText(engineWith([line('CHASSIS NO', 453, 334, 155, 43), line('T913435', 607, 396, 251, 68)]), 'vin', photo);
    expect(partial.map((r) => r.value)).toEqual(['TMBMVGDTKHT913435']);
    // One row read again, reaching about ten characters to the left of the piece.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.width).toBeGreaterThan(251 * 17 / 7);
    // A VIN read whole in the first place is not read again.
    asked.length = 0;
    await readText(engineWith([line('TMBMVGDTKHT913435', 180, 396, 680, 68)]), 'vin', photo);
    expect(asked).toHaveLength(0);
  });

  it('vin: a tilted row is read again along its own slope, not as the box around it', async () => {
    // A dark band 60 px high rising 10 degrees to the right: the number's row on a tilted plate.
    const width = 1100;
    const height = 800;
    const slope = Math.tan((10 * Math.PI) / 180);
    const centreY = (x: number) => 600 - (x - 100) * slope;
    const data = Buffer.alloc(width * height * 3, 230);
    for (let y = 0; y < height; y++) for (let x = 100; x < 1000; x++) if (Math.abs(y - centreY(x)) < 30) data.fill(20, (y * width + x) * 3, (y * width + x) * 3 + 3);
    const photo = { data, width, height, channels: 3 as const };
    // The detector boxed only the row's last seven characters, a quad along the band.
    const tilt = { x: Math.cos((10 * Math.PI) / 180), y: -Math.sin((10 * Math.PI) / 180) };
    const start = { x: 640, y: centreY(640) };
    const along = (p: { x: number; y: number }, d: number, up: number) => ({ x: p.x + d * tilt.x + up * tilt.y, y: p.y + d * tilt.y - up * tilt.x });
    const box: TextLine['box'] = [along(start, 0, 30), along(start, 340, 30), along(start, 340, -30), along(start, 0, -30)];
    const piece: TextLine = { text: 'T913435', confidence: 0.96, charConfidences: Array(7).fill(0.96), alternatives: [...'T913435'].map((char) => [{ char, prob: 0.96 }]), box, orientation: 'horizontal', layout: 'upright' };
    const crops: Array<{ data: Buffer; width: number; height: number }> = [];
    const engine = {
      readLines: async () => [piece],
      recognizeCrops: async (cut: Array<{ data: Buffer; width: number; height: number }>) => {
        crops.push(...cut);
        return [{ text: '', confidence: 0, charConfidences: [], alternatives: [] }];
      },
    } as unknown as OcrEngine;
    await readText(engine, 'vin', photo);
    expect(crops.length).toBeGreaterThan(0);
    const crop = crops[0]!;
    // A line's crop (60 px and a fifth above and below), mostly the band's dark pixels; the
    // upright box around the same row would be over 200 px tall and mostly background.
    expect(crop.height).toBeLessThan(100);
    let dark = 0;
    for (let i = 0; i < crop.data.length; i += 3) if (crop.data[i]! < 128) dark++;
    expect(dark / (crop.width * crop.height)).toBeGreaterThan(0.6);
  });

  it('shipping_container: code in parts with the size/type code and weights, labelled', async () => {
    const img = await textImage([
      { text: 'CSQU', x: 700, y: 200, size: 72, bold: true },
      { text: '305438', x: 930, y: 200, size: 72, bold: true },
      { text: '3', x: 1200, y: 200, size: 72, bold: true },
      { text: '22G1', x: 930, y: 300, size: 64, bold: true },
      { text: 'MAX. GROSS', x: 600, y: 420, size: 36 },
      { text: '30.480 KGS', x: 900, y: 420, size: 36 },
      { text: 'TARE', x: 600, y: 500, size: 36 },
      { text: '2.210 KGS', x: 900, y: 500, size: 36 },
    ]);
    const results = await read('shipping_container', img);
    expect(results.find((r) => r.label === 'Serial Number')?.value).toBe('CSQU3054383');
    expect(results.find((r) => r.label === 'Size and Type Codes')?.value).toBe('22G1');
    expect(results.find((r) => r.label === 'Maximum Gross Weight KG')?.value).toBe('30.480 KG');
    expect(results.find((r) => r.label === 'Tare or Container Weight KG')?.value).toBe('2.210 KG');
  });

  it('shipping_container: a code whose check digit does not hold is not reported as a code', async () => {
    const img = await textImage([{ text: 'CSQU 305438 4', x: 200, y: 300, size: 80, bold: true }]);
    expect((await read('shipping_container', img)).find((r) => r.label === 'Serial Number')).toBeUndefined();
  });

  it('shipping_container: a code painted top to bottom on a door post, in two pieces', async () => {
    const flat = await textImage([
      { text: 'TEMU 503', x: 60, y: 140, size: 72, bold: true },
      { text: '7029', x: 480, y: 140, size: 72, bold: true },
      { text: '22G1', x: 60, y: 300, size: 64, bold: true },
    ], 900, 360);
    const results = await read('shipping_container', await sharp(flat).rotate(90).jpeg().toBuffer());
    expect(results.find((r) => r.label === 'Serial Number')).toMatchObject({ value: 'TEMU5037029', orientation: 'vertical' });
  });

  it('shipping_container: a check digit lost in its box is recovered from the rest of the code', async () => {
    // The boxed check digit reads as a letter (here drawn as one): the other ten characters decide it.
    const img = await textImage([{ text: 'BEAU 265693 D', x: 200, y: 300, size: 80, bold: true }]);
    expect((await read('shipping_container', img)).find((r) => r.label === 'Serial Number')?.value).toBe('BEAU2656931');
  });

  it('shipping_container: every code in a yard photo, small and far away, owner code above serial', async () => {
    // Capitals about 7 px high at the 960 px first pass: the full-resolution pass reads them.
    const codes = [['SEKU', '9203379'], ['TEMU', '9545687'], ['SEGU', '9941418']];
    const img = await textImage(codes.flatMap(([owner, serial], i) => [
      { text: owner!, x: 300 + i * 600, y: 700, size: 20, bold: true },
      { text: serial!, x: 300 + i * 600, y: 722, size: 20, bold: true },
    ]), 1920, 1440);
    const found = (await read('shipping_container', img)).filter((r) => r.label === 'Serial Number').map((r) => r.value);
    expect(found.sort()).toEqual(['SEGU9941418', 'SEKU9203379', 'TEMU9545687']);
  });

  it('odometer: the prominent mileage, not the clock or the temperature', async () => {
    const img = await textImage([
      { text: '12:45', x: 100, y: 150, size: 40 },
      { text: '21°C', x: 1000, y: 150, size: 40 },
      { text: '142158', x: 450, y: 400, size: 110, bold: true },
    ]);
    expect((await read('odometer', img)).map((r) => r.value)).toEqual(['142158']);
  });

  it('boat_reg_number: a US state number', async () => {
    const img = await textImage([{ text: 'CF 1234 AB', x: 300, y: 380, size: 100, bold: true }]);
    expect((await read('boat_reg_number', img)).map((r) => r.value)).toEqual(['CF 1234 AB']);
  });

  it('boat_reg_number: a state number boxed in two pieces, not the piece without its state code', async () => {
    // Second generator (2026-12-06): WI boxed apart from 2589V, and read less surely.
    const line = (text: string, confidence: number, x: number): TextLine => ({
      text, confidence, charConfidences: [...text].map(() => confidence), alternatives: [...text].map((char) => [{ char, prob: confidence }]),
      box: [{ x, y: 335 }, { x: x + 22 * text.length, y: 335 }, { x: x + 22 * text.length, y: 375 }, { x, y: 375 }], orientation: 'horizontal', layout: 'upright',
    });
    const value = async (lines: TextLine[]) => (await readText(engineWith(lines), 'boat_reg_number', blank)).map((r) => r.value);
    expect(await value([line('2589V', 1, 532), line('WI', 0.79, 470)])).toEqual(['WI 2589 V']);
    // A mark of another country is not joined to a word beside it.
    expect(await value([line('K4T77', 0.95, 532), line('SEA', 0.9, 420)])).toEqual(['K4T77']);
  });

  it('boat_reg_number: a state number read without its letters is read again with the row lengthened to the right', async () => {
    // Second generator (2026-12-06): the lone U of OR 937 U, past a gap, boxed by no line.
    const line = (text: string, x: number, width: number): TextLine => ({
      text, confidence: 0.95, charConfidences: [...text].map(() => 0.95), alternatives: [...text].map((char) => [{ char, prob: 0.95 }]),
      box: [{ x, y: 300 }, { x: x + width, y: 300 }, { x: x + width, y: 360 }, { x, y: 360 }], orientation: 'horizontal', layout: 'upright',
    });
    const photo = { data: Buffer.alloc(1200 * 600 * 3, 128), width: 1200, height: 600, channels: 3 as const };
    // The fake recogniser reads `rowText` from a crop that reaches at least 100 px past x 520, the lines' right end.
    const value = async (lines: TextLine[], rowText: string) => {
      const widths: number[] = [];
      const engine = {
        readLines: async () => lines,
        recognizeCrops: async (crops: Array<{ width: number }>) => crops.map((c) => {
          widths.push(c.width);
          return c.width >= 420 + 100 ? { text: rowText, confidence: 0.9, charConfidences: [], alternatives: [] } : nothing;
        }),
      } as unknown as OcrEngine;
      return { values: (await readText(engine, 'boat_reg_number', photo)).map((r) => r.value), widths };
    };
    const oregon = await value([line('OR937', 100, 420)], 'OR937U');
    expect(oregon.values).toEqual(['OR 937 U']);
    expect(oregon.widths).toHaveLength(1);
    // Only the letters come from the row: MN boxed apart and read surely stays, though the row read it MT.
    expect((await value([line('MN', 100, 150), line('6598', 270, 250)], 'MT6598C')).values).toEqual(['MN 6598 C']);
    // A row that reads other digits before the letters is another reading of the number, not its letters.
    expect((await value([line('OR937', 100, 420)], 'OR987U')).values).toEqual(['OR937']);
    // A number with its letters is not read again.
    expect((await value([line('OR937U', 100, 420)], 'OR937UX')).widths).toEqual([]);
  });

  it('trailer_id: the fleet number, not a longer painted line of words that holds a digit', async () => {
    const img = await textImage([
      { text: 'CARRIER 53', x: 300, y: 150, size: 64, bold: true },
      { text: 'SED6625', x: 120, y: 450, size: 56, bold: true },
    ]);
    expect((await read('trailer_id', img)).map((r) => r.value)).toEqual(['SED6625']);
  });

  it('trailer_id: a fleet number painted on one row with the fleet name', async () => {
    // In a monospaced face, whose spaces the recogniser reads (in DejaVu Sans Bold it runs the
    // words together, and nothing tells the name's last letters from a prefix).
    const img = await textImage([{ text: 'GREAT PLAINS E19490', x: 60, y: 300, size: 56 }]);
    const [r] = await read('trailer_id', img);
    expect(r?.value).toBe('E19490');
    // Its box is the number's, not the row's: it starts past the name, 13 of 19 characters in.
    expect(r!.box!.xmin).toBeGreaterThan(60 + 0.5 * (r!.box!.xmax - 60));
  });

  it('trailer_id: a word of a line of words is an ID only where a line of its own is not', async () => {
    const row = (text: string, y: number, spans = true): TextLine => ({
      text, confidence: 0.9, charConfidences: [...text].map(() => 0.9), alternatives: [...text].map((char) => [{ char, prob: 0.9 }]),
      box: [{ x: 100, y }, { x: 100 + 30 * text.length, y }, { x: 100 + 30 * text.length, y: y + 60 }, { x: 100, y: y + 60 }],
      ...(spans ? { charSpans: [...text].map((_, i) => ({ x0: 30 * i + 10, x1: 30 * i + 20 })) } : {}),
      orientation: 'horizontal', layout: 'upright',
    });
    const read1 = async (lines: TextLine[]) => readText(engineWith(lines), 'trailer_id', blank);
    // The number's box from where each of its characters was seen: characters 8 to 12.
    expect(await read1([row('KOOLTRANS 4521', 300)])).toEqual([expect.objectContaining({ value: '4521', box: { xmin: 100 + 30 * 10, ymin: 300, xmax: 100 + 30 * 14, ymax: 360 } })]);
    // Without the characters' places, the row's.
    expect(await read1([row('KOOLTRANS 4521', 300, false)])).toEqual([expect.objectContaining({ value: '4521', box: { xmin: 100, ymin: 300, xmax: 520, ymax: 360 } })]);
    // A line that is a number by itself, as tall, weighs more.
    expect((await read1([row('KOOLTRANS 4521', 300), row('TN2005', 500)])).map((r) => r.value)).toEqual(['TN2005']);
    // A row short enough to be an ID whole, though not shaped like one, gives its number.
    expect((await read1([row('PRIME 4521', 300)])).map((r) => r.value)).toEqual(['4521']);
    // Two digits are a length or a count (CARRIER 53, 53 FT), not a fleet number: the row stays whole.
    expect((await read1([row('CARRIER 53', 300)])).map((r) => r.value)).toEqual(['CARRIER53']);
    // A name run into the number's end, no space read between them (second generator,
    // 2026-12-06): the number, boxed where its characters were seen. A number ends in two letters
    // at most; three or more begin another word.
    expect(await read1([row('GPB8811CARRIER 53', 300)])).toEqual([expect.objectContaining({ value: 'GPB8811', box: { xmin: 100, ymin: 300, xmax: 100 + 30 * 7, ymax: 360 } })]);
    expect((await read1([row('4521KOOLTRANS', 300)])).map((r) => r.value)).toEqual(['4521']);
    expect((await read1([row('TN2005AB', 300)])).map((r) => r.value)).toEqual(['TN2005AB']);
  });

  describe('trailer_id: a stencilled number boxed as two halves, one on the other', () => {
    /** A fake engine that boxes `lines` and reads any row cut out again as `again`; the rows it was asked to read. */
    const engineRereading = (lines: TextLine[], again: string) => {
      const rows: Array<{ width: number; height: number }> = [];
      const engine = {
        readLines: async () => lines,
        recognizeCrops: async (crops: Array<{ width: number; height: number }>) => crops.map((c) => {
          rows.push({ width: c.width, height: c.height });
          return { text: again, confidence: 0.99, charConfidences: [...again].map(() => 0.99), alternatives: [...again].map((char) => [{ char, prob: 0.99 }]) };
        }),
      } as unknown as OcrEngine;
      return { engine, rows };
    };
    const photo = { data: Buffer.alloc(640 * 480 * 3, 200), width: 640, height: 480, channels: 3 as const };

    it('reads the row the two halves make together', async () => {
      // Second generator (2026-12-06): 2499 with a stencil's bridges across it, boxed as its upper
      // part (`51OO`) and, overlapping it, its lower part (`2TJJ`).
      const { engine, rows } = engineRereading([flatLine('51OO', 0.56, 84, 316, 193, 364), flatLine('2TJJ', 0.36, 88, 348, 189, 379)], '2499');
      const [r] = await readText(engine, 'trailer_id', photo);
      expect(r).toEqual(expect.objectContaining({ value: '2499', orientation: 'horizontal' }));
      // The row read again spans both halves, from the upper's top to the lower's bottom.
      expect(rows).toHaveLength(1);
      expect(rows[0]!.height).toBeGreaterThanOrEqual(379 - 316);
      expect(r!.box!.ymin).toBeLessThanOrEqual(316);
      expect(r!.box!.ymax).toBeGreaterThanOrEqual(379);
    });

    it('leaves two painted lines apart: a name under the number, or a line a gap below another', async () => {
      // A fleet name painted right under the number, narrower than it: no half of it.
      const named = engineRereading([flatLine('BH09843', 0.92, 424, 549, 708, 630), flatLine('KOOLTRANS', 0.88, 435, 630, 587, 670)], 'BH109843');
      expect((await readText(named.engine, 'trailer_id', photo)).map((r) => r.value)).toEqual(['BH09843']);
      expect(named.rows).toEqual([]);
      // As wide as the number, on a panel seen at a tilt (their upright bounds overlap), but read
      // surely: a line of its own (second generator, 2026-12-06: AB26056 over `CARRIER 53`,
      // whose joined row read `CAR216R5`).
      const sure = engineRereading([flatLine('AB26056', 1, 448, 570, 658, 636), flatLine('CARRIER 53', 0.97, 409, 623, 660, 688)], 'CAR216R5');
      expect((await readText(sure.engine, 'trailer_id', photo)).map((r) => r.value)).toEqual(['AB26056']);
      expect(sure.rows).toEqual([]);
      // Two lines as wide, read unsurely, a third of a line's height apart.
      const apart = engineRereading([flatLine('TN2OO5', 0.6, 100, 100, 300, 160), flatLine('TN2OO6', 0.6, 100, 180, 300, 240)], 'TN2005TN2006');
      await readText(apart.engine, 'trailer_id', photo);
      expect(apart.rows).toEqual([]);
    });
  });

  it('trailer_id: two boxes over one column, each with a part and the characters between, join', async () => {
    const column = (text: string, x0: number, y0: number, x1: number, y1: number): TextLine => ({
      ...flatLine(text, 1, x0, y0, x1, y1), orientation: 'vertical', layout: 'stacked',
    });
    // Second generator (2026-12-07): W29649 on a tilted panel, boxed as `W29` and as `29649`.
    const read1 = async (lines: TextLine[]) => (await readText(engineWith(lines), 'trailer_id', blank)).map((r) => r.value);
    expect(await read1([column('W29', 57, 230, 155, 549), column('29649', 90, 323, 183, 819)])).toEqual(['W29649']);
    // One character in common is no evidence of the same number: no join, the wider column's
    // reading stands.
    expect(await read1([column('W29', 57, 230, 155, 549), column('96490', 90, 323, 183, 819)])).toEqual(['W29']);
    // The part that starts lower cannot be the number's beginning.
    expect(await read1([column('29649', 57, 230, 155, 549), column('W29', 90, 323, 183, 819)])).toEqual(['29649']);
  });

  it('trailer_id: a run of 1s alone, what ribs, seams and bars read as, weighs less than a number', async () => {
    // Second generator (2026-12-06): the number 48985 read surely; a hinge bar with dirt beside
    // it boxed taller and read `111`.
    const found = await readText(engineWith([flatLine('48985', 1, 89, 474, 262, 542), flatLine('111', 0.93, 424, 568, 511, 656)]), 'trailer_id', blank);
    expect(found.map((r) => r.value)).toEqual(['48985']);
    // Alone, it is still read.
    expect((await readText(engineWith([flatLine('111', 0.93, 424, 568, 511, 656)]), 'trailer_id', blank)).map((r) => r.value)).toEqual(['111']);
  });

  it('trailer_id: a letter read between digits is the digit the recogniser also saw there', async () => {
    const line = (text: string, alternatives: Record<number, Array<{ char: string; prob: number }>>): TextLine => ({
      text, confidence: 0.85, charConfidences: [...text].map(() => 0.85),
      alternatives: [...text].map((char, i) => alternatives[i] ?? [{ char, prob: 0.85 }]),
      box: [{ x: 100, y: 300 }, { x: 500, y: 300 }, { x: 500, y: 360 }, { x: 100, y: 360 }], orientation: 'horizontal', layout: 'upright',
    });
    const value = async (l: TextLine) => (await readText(engineWith([l]), 'trailer_id', blank)).map((r) => r.value);
    // A stencilled 9 read as g, with the 9 beside it.
    expect(await value(line('2270g8', { 4: [{ char: 'g', prob: 0.56 }, { char: '9', prob: 0.22 }, { char: 'S', prob: 0.11 }] }))).toEqual(['227098']);
    // No digit seen there (a trace under 0.05 is noise): the letter stays.
    expect(await value(line('7G43', { 1: [{ char: 'G', prob: 0.86 }, { char: '6', prob: 0.04 }] }))).toEqual(['7G43']);
    // A prefix's letters are no digits, whatever the recogniser also saw.
    expect(await value(line('TB123', { 1: [{ char: 'B', prob: 0.6 }, { char: '8', prob: 0.3 }] }))).toEqual(['TB123']);
  });

  it('trailer_id: of two boxes over one number, the reading that holds the other and more', async () => {
    // Second generator (2026-12-06): a stacked 510075 in an outlined face, boxed twice, once
    // without its top 5; the shorter box stood wider, so its reading weighed more.
    const column = (text: string, x0: number, y0: number, x1: number, y1: number): TextLine => ({
      text, confidence: 0.99, charConfidences: [...text].map(() => 0.99), alternatives: [...text].map((char) => [{ char, prob: 0.99 }]),
      box: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }], orientation: 'vertical', layout: 'stacked',
    });
    const value = async (lines: TextLine[]) => (await readText(engineWith(lines), 'trailer_id', blank)).map((r) => r.value);
    const piece = column('10075', 879, 280, 987, 790);
    expect(await value([piece, column('510075', 879, 185, 982, 799)])).toEqual(['510075']);
    // Another number elsewhere that happens to hold it is another number: the heavier stands.
    expect(await value([piece, column('510075', 200, 185, 260, 799)])).toEqual(['10075']);
  });

  it('trailer_id: a number painted top to bottom reads as vertical', async () => {
    const [r] = await read('trailer_id', await verticalTextImage('53012'));
    expect(r).toMatchObject({ value: '53012', orientation: 'vertical' });
  });

  it('trailer_id: a stacked X is read as the letter, not as a multiplication sign and lost', async () => {
    const [r] = await read('trailer_id', await verticalTextImage('X340'));
    expect(r).toMatchObject({ value: 'X340', orientation: 'vertical' });
  });
});
