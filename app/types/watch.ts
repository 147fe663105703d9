/**
 * What a watch toggle's post answers (app/routes/auction/resources.watch.ts), as
 * app/components/auction/watch-toggle.tsx reads it: whether the auction is watched now, and the
 * message to say.
 */
export type WatchActionResult = { ok: boolean; watching: boolean | null; message: string }
