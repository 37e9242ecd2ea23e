import type { Command } from 'commander';
import type { CliContext } from './context.js';

/** ocr, plates, analyze-camera: the recognisers on files, without a server. */
export function registerOfflineCommands(program: Command, ctx: CliContext): void {
  program
    .command('ocr')
    .description('read identifiers from images offline; prints the API responses')
    .requiredOption('--type <type>', 'vin, trailer_id, odometer, shipping_container or boat_reg_number')
    .argument('<images...>', 'images to read')
    .addOption(ctx.jsonOption())
    .action(async (images: string[], o: { type: string }) => {
      const { ocrFiles } = await import('../recognition-cli.js');
      const results = (await ocrFiles(o.type, images)) as Array<{ filename: string; results: Array<{ identifier: { props: { code: Array<{ value: string }> } } }> }>;
      ctx.print(results, results.map((r) => `${r.filename}: ${r.results.map((x) => x.identifier.props.code[0]?.value).join(', ') || '(nothing)'}`).join('\n'));
    });

  program
    .command('plates')
    .description('find and read licence plates offline; prints the hosted API responses')
    .argument('<images...>', 'images to read')
    .option('--regions <list>', 'comma-separated region codes (us,br,gb...)', '')
    .option('--mmc', 'add colour, orientation and make/model fields')
    .addOption(ctx.jsonOption())
    .action(async (images: string[], o: { regions: string; mmc?: boolean }) => {
      const { plateFiles } = await import('../recognition-cli.js');
      const regions = o.regions.split(',').map((r) => r.trim().toLowerCase()).filter(Boolean);
      const results = (await plateFiles(images, { regions, mmc: Boolean(o.mmc) })) as Array<{ filename: string; results: Array<{ plate: string }> }>;
      ctx.print(results, results.map((r) => `${r.filename}: ${r.results.map((x) => x.plate).join(', ') || '(no plate)'}`).join('\n'));
    });

  program
    .command('analyze-camera')
    .description('score images against a reference offline, as the service would')
    .requiredOption('--reference <file>', 'the reference image')
    .argument('<images...>', 'images to analyse')
    .addOption(ctx.jsonOption())
    .action(async (images: string[], o: { reference: string }) => {
      const { analyzeFilesForCli } = await import('../vision/camera-health/analyze-files.js');
      const results = await analyzeFilesForCli(o.reference, images);
      const human = results.map((r) => `${r.file}: ${r.status}${Object.keys(r.anomalies).length ? ` ${JSON.stringify(r.anomalies)}` : ''}${r.detail ? ` (${r.detail})` : ''}`).join('\n');
      ctx.print(results, human);
    });
}
