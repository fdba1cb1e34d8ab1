/** Who sees the Flows page (SPEC §6): its own file so the web client's router and menu take it without the schemas. */
export const FLOW_ROLES = ['ROLE_SECUFLOWS_ACCESS'] as const;
