import { Option, type Command } from 'commander';
import type { CliContext } from './context.js';
import { toCsv } from '../domain/csv.js';
import { expandImageInputs } from './files.js';

const formatOption = () => new Option('--format <format>', 'text (default) or csv: one row per reading').choices(['text', 'csv']).default('text');
const IMAGES = 'images, folders of images, or quoted patterns (\'lane-2/*.jpg\')';

/** ocr, plates, analyze-camera: the recognisers on files, without a server. */
export function registerOfflineCommands(program: Command, ctx: CliContext): void {
  program
    .command('ocr')
    .description('read identifiers from images offline; prints the API responses')
    .requiredOption('--type <type>', 'vin, trailer_id, odometer, shipping_container or boat_reg_number')
    .argument('<images...>', IMAGES)
    .addOption(formatOption())
    .addOption(ctx.jsonOption())
    .action(async (inputs: string[], o: { type: string; format: string }) => {
      const { ocrFiles } = await import('../recognition-cli.js');
      const { RecognitionWorkers } = await import('../vision/runtime/recognition.pool.js');
      const files = await expandImageInputs(inputs);
      const workers = new RecognitionWorkers(1, ctx.config().vision);
      const results = await ocrFiles(o.type, files, workers.text, ctx.progress(files.length)).finally(() => workers.close());
      const csv = () => toCsv(['file', 'value', 'confidence'], results.flatMap((r) =>
        r.results.map((x) => [r.filename, x.identifier.props.code[0]?.value, x.identifier.props.confidence])));
      ctx.print(results, o.format === 'csv' ? csv() : results.map((r) => `${r.filename}: ${r.results.map((x) => x.identifier.props.code[0]?.value).join(', ') || '(nothing)'}`).join('\n'));
    });

  program
    .command('plates')
    .description('find and read licence plates offline; prints the hosted API responses')
    .argument('<images...>', IMAGES)
    .option('--regions <list>', 'comma-separated region codes (us,br,gb...)', '')
    .option('--mmc', 'add colour, orientation and make/model fields')
    .addOption(formatOption())
    .addOption(ctx.jsonOption())
    .action(async (inputs: string[], o: { regions: string; mmc?: boolean; format: string }) => {
      const { plateFiles } = await import('../recognition-cli.js');
      const { RecognitionWorkers } = await import('../vision/runtime/recognition.pool.js');
      const regions = o.regions.split(',').map((r) => r.trim().toLowerCase()).filter(Boolean);
      const files = await expandImageInputs(inputs);
      const workers = new RecognitionWorkers(1, ctx.config().vision);
      const results = await plateFiles(files, { regions, mmc: Boolean(o.mmc) }, workers.plates, ctx.progress(files.length)).finally(() => workers.close());
      const plates = (r: (typeof results)[number]) => r.results.flatMap((x) => ('box' in x ? [x] : []));
      const csv = () => toCsv(['file', 'plate', 'score', 'region', 'xmin', 'ymin', 'xmax', 'ymax'], results.flatMap((r) =>
        plates(r).map((x) => [r.filename, x.plate, x.score, x.region.code, x.box.xmin, x.box.ymin, x.box.xmax, x.box.ymax])));
      ctx.print(results, o.format === 'csv' ? csv() : results.map((r) => `${r.filename}: ${plates(r).map((x) => x.plate).join(', ') || '(no plate)'}`).join('\n'));
    });

  program
    .command('analyze-camera')
    .description('score images against a reference offline, as the service would')
    .requiredOption('--reference <file>', 'the reference image')
    .argument('<images...>', IMAGES)
    .addOption(formatOption())
    .addOption(ctx.jsonOption())
    .action(async (inputs: string[], o: { reference: string; format: string }) => {
      const { analyzeFilesForCli } = await import('../vision/camera-health/analyze-files.js');
      const files = await expandImageInputs(inputs);
      const results = await analyzeFilesForCli(o.reference, files, ctx.progress(files.length));
      const csv = () => toCsv(['file', 'status', 'blur', 'obstruction', 'glare', 'position_change', 'detail'], results.map((r) =>
        [r.file, r.status, r.scores?.Blur, r.scores?.Obstruction, r.scores?.Glare, r.scores?.['Position change'], r.detail]));
      const human = results.map((r) => `${r.file}: ${r.status}${Object.keys(r.anomalies).length ? ` ${JSON.stringify(r.anomalies)}` : ''}${r.detail ? ` (${r.detail})` : ''}`).join('\n');
      ctx.print(results, o.format === 'csv' ? csv() : human);
    });
}
