// @ts-check
// Pass-and-play's draughts rules (ours, one engine configured per variant): fetched only when a draughts game opens on the phone.
export { DraughtsMatch } from "../modules/draughts_rules.js";
