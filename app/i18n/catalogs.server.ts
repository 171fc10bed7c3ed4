/**
 * Every catalog of every language, bundled with the server: it renders pages in any of them and
 * hands the browser only the one its page needs (see `pageMessages`).
 */
import { LANGUAGES, NAMESPACES, type Language, type Namespace } from "./languages";
import type { Catalog } from "./translator";

export type Catalogs = Record<Language, Record<Namespace, Catalog>>;

const files = import.meta.glob<Catalog>("../locales/*/*.json", { eager: true, import: "default" });

export const CATALOGS: Catalogs = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    Object.fromEntries(NAMESPACES.map((namespace) => [namespace, files[`../locales/${language}/${namespace}.json`] ?? {}])),
  ]),
) as Catalogs;
