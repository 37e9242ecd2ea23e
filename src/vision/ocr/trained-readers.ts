/** The choices of Vigil's own text readers (IDENTIFIER_READER, STACK_READER): `trained`, the
 * model with its convolutions in 8 bits (training/vigil_train/quantize.py), about 2.6 times as
 * fast a line or column as the float graph and reading the same identifiers (models/README.md);
 * `trained-fp32`, the float graph as trained; `ppocr`, PP-OCR's recogniser alone. */
export type TrainedReaderChoice = 'trained' | 'trained-fp32' | 'ppocr';
export const TRAINED_READER_CHOICES: readonly TrainedReaderChoice[] = ['trained', 'trained-fp32', 'ppocr'];

/** Which of a trained reader's shipped graphs runs. */
export type ReaderPrecision = 'int8' | 'fp32';

export const precisionOf = (choice: TrainedReaderChoice): ReaderPrecision => (choice === 'trained-fp32' ? 'fp32' : 'int8');
