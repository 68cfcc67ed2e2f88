/**
 * @module Paths are matched exactly: letter case counts and a trailing slash makes another path.
 * Express matches regardless of both by default, so `/API/V1/Fleet/Vehicles/` answered as
 * `/api/v1/fleet/vehicles`: one resource under many URLs (each its own entry in a client's or a
 * proxy's cache), and a typo served instead of said. A path that differs from a served one only by
 * case or trailing slashes gets a 404 that names the served path.
 */
import { Router, type RequestHandler } from 'express';
import { notFound } from '../errors';
import { sendError } from './error-handler';

/** The routing options of the app and of every router in it. */
const EXACT = { caseSensitive: true, strict: true } as const;

export function exactRouter(): Router {
  return Router(EXACT);
}

export const EXACT_APP_SETTINGS: readonly (readonly [setting: string, value: boolean])[] = [
  ['case sensitive routing', EXACT.caseSensitive],
  ['strict routing', EXACT.strict],
];

/** What the path would be as the API spells it: lower case, no trailing slash. */
function spelledAsServed(path: string): string {
  return path.toLowerCase().replace(/(?<=.)\/+$/, '');
}

/** The last handler: 404 for a path nothing served, naming the served path it is a misspelling of, if any. */
export function noRoute(isServedPath: (path: string) => boolean): RequestHandler {
  return (req, res) => {
    const shown = req.path.slice(0, 200);
    const served = spelledAsServed(req.path);
    const hint = served !== req.path && isServedPath(served) ? ` Paths are matched exactly (letter case, no trailing slash): did you mean ${served.slice(0, 200)}?` : '';
    sendError(res, notFound(`No route ${req.method} ${shown}.${hint}`));
  };
}
