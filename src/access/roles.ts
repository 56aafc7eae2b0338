/** The five WordPress roles of tec-reference §9.2. */
export const ROLES = ["administrator", "editor", "author", "contributor", "subscriber"] as const;
export type Role = (typeof ROLES)[number];
