/** Current time in epoch milliseconds; injectable so tests can move time instead of waiting. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
