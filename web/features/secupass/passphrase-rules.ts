import { secuPassPolicyProblems, type SecuPassPolicy } from '@shared/contract/secupass';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** zxcvbn score 0 (too guessable) … 4 (very unguessable). */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export type PolicyProblem = ReturnType<typeof secuPassPolicyProblems>[number] | 'strength';

let factory: ZxcvbnFactory | null = null;

/** zxcvbn strength of a candidate; `userInputs` (name, email) count as guessable words. */
export function passphraseStrength(passphrase: string, userInputs: string[] = []): StrengthScore {
  if (!passphrase) return 0;
  factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, useLevenshteinDistance: true });
  return factory.check(passphrase, userInputs).score as StrengthScore;
}

export interface PassphraseEvaluation {
  /** Rules of the policy the candidate breaks, strength last. Empty = acceptable. */
  problems: PolicyProblem[];
  score: StrengthScore;
}

/** Checks a candidate against the server policy plus the strength floor (SPEC §5 "meet its policy"). */
export function evaluatePassphrase(policy: SecuPassPolicy, passphrase: string, score: StrengthScore): PassphraseEvaluation {
  const problems: PolicyProblem[] = [...secuPassPolicyProblems(policy, passphrase)];
  if (score < policy.minStrength) problems.push('strength');
  return { problems, score };
}

/** The rules to list beside the field, each with whether the candidate meets it. */
export function policyChecklist(policy: SecuPassPolicy, evaluation: PassphraseEvaluation): Array<{ rule: PolicyProblem; met: boolean }> {
  const rules: PolicyProblem[] = ['minLength'];
  if (policy.requireLowercase) rules.push('lowercase');
  if (policy.requireUppercase) rules.push('uppercase');
  if (policy.requireDigit) rules.push('digit');
  if (policy.requireSpecial) rules.push('special');
  if (policy.minStrength > 0) rules.push('strength');
  return rules.map((rule) => ({ rule, met: !evaluation.problems.includes(rule) }));
}

/** Strength label key and meter value (0–1) for a score. */
export function strengthMeter(score: StrengthScore): { level: 'veryWeak' | 'weak' | 'fair' | 'strong' | 'veryStrong'; value: number; color: 'error' | 'warning' | 'success' } {
  const level = (['veryWeak', 'weak', 'fair', 'strong', 'veryStrong'] as const)[score];
  return { level, value: (score + 1) / 5, color: score <= 1 ? 'error' : score === 2 ? 'warning' : 'success' };
}
