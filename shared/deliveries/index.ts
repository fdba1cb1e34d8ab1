export * from './send-rules';
export * from './send-errors';
