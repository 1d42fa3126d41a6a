/**
 * org: the language codes the server offers for `default_language` (realm and user settings),
 * with their display names (api-notes §d `language_name`). A fixed list; an unknown code is an
 * error ("Invalid language '<code>'").
 */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'العربية',
  bg: 'Български',
  ca: 'Català',
  cs: 'Čeština',
  da: 'Dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  en_GB: 'British English',
  es: 'Español',
  fa: 'فارسی',
  fi: 'Suomi',
  fr: 'Français',
  hi: 'हिंदी',
  hu: 'Magyar',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  lt: 'Lietuvių',
  nl: 'Nederlands',
  no: 'Norsk',
  pl: 'Polski',
  pt: 'Português',
  pt_BR: 'Português Brasileiro',
  pt_PT: 'Português Europeu',
  ro: 'Română',
  ru: 'Русский',
  sk: 'Slovenčina',
  sr: 'Српски',
  sv: 'Svenska',
  ta: 'தமிழ்',
  tr: 'Türkçe',
  uk: 'Українська',
  vi: 'Tiếng Việt',
  zh_Hans: '简体中文',
  zh_Hant: '繁體中文',
};

export function isLanguageCode(code: string): boolean {
  return Object.hasOwn(LANGUAGES, code);
}
