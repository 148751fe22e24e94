/** The shape every language's catalogue has: the English one's prompts, screens and keys, each a string. */
import type { en } from './en.js';

type Screens<T> = { [P in keyof T]: { [S in keyof T[P]]: { [K in keyof T[P][S]]: string } } };

export type Catalog = Screens<typeof en>;
