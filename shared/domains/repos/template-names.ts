/** What POST /repos offers for a first commit (the texts are in templates.ts, loaded when used). */
export const GITIGNORE_TEMPLATES = ['Node', 'Next.js', 'Python', 'Go', 'Rust'] as const;
export type GitignoreTemplate = (typeof GITIGNORE_TEMPLATES)[number];
export const LICENSES = ['MIT', 'Apache-2.0'] as const;
export type License = (typeof LICENSES)[number];
