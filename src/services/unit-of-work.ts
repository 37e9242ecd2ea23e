import type { JobQueue } from '../queue/jobs.js';
import type { AlertRepository } from '../storage/repositories/alert.repository.js';
import type { CameraRepository } from '../storage/repositories/camera.repository.js';
import type { ImageRepository } from '../storage/repositories/image.repository.js';
import type { LicenseRepository } from '../storage/repositories/license.repository.js';
import type { PlateReadRepository } from '../storage/repositories/plate-read.repository.js';
import type { PlateVisitRepository } from '../storage/repositories/plate-visit.repository.js';
import type { WatchlistRepository } from '../storage/repositories/watchlist.repository.js';

/** The repositories of one transaction, and a job queue whose jobs commit with it. */
export interface TransactionRepositories {
  cameras: CameraRepository;
  licenses: LicenseRepository;
  alerts: AlertRepository;
  images: ImageRepository;
  plateReads: PlateReadRepository;
  plateVisits: PlateVisitRepository;
  watchlists: WatchlistRepository;
  jobs: JobQueue;
}

/** Runs `work` in one database transaction: everything it writes commits together or not at
 * all. Services get this from the composition root and never build repositories themselves. */
export type UnitOfWork = <T>(work: (repos: TransactionRepositories) => Promise<T>) => Promise<T>;
