export * from './constants';
export * from './upload';
export * from './send-delivery';
