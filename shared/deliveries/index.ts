// The rules and their error table live in shared/rules (pure: the server imports them too).
export * from '@shared/rules/send-rules';
export * from '@shared/rules/send-rule-errors';
export * from './send-errors';
