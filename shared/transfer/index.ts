export * from './constants';
export * from './upload';
export * from './send-delivery';
export * from './e2e';
export * from './contact-pins';
export * from './room-rollback';
export * from './form-submit';
