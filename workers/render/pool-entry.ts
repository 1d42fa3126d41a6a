/** The piscina worker's module: it exports the render task by name (see pool.ts). */
export { renderTask } from './task';
