// Loads a TypeScript worker module through tsx. Only used when Vigil runs from its sources
// (tests); the built package runs the compiled .js workers directly.
import { register } from 'tsx/esm/api';

register();
const mod = await import(process.env.VIGIL_WORKER_TARGET);
export default mod.default;
