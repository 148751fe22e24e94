/** The hosted pages' text catalogue and the choice of a page's language (src/domain/branding/texts.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATALOGS, chooseLanguage, customTextProblem, enabledLanguages, LANGUAGES } from '../../../src/domain/branding/texts.js';

const variables = (text: string) => [...text.matchAll(/\$\{([A-Za-z]+)\}/g)].map((m) => m[1]).sort();

describe('text catalogue', () => {
  it('every language has every key of English, not empty, with the same variables', () => {
    const en = CATALOGS.en as unknown as Record<string, Record<string, Record<string, string>>>;
    for (const language of LANGUAGES) {
      const catalog = CATALOGS[language] as unknown as Record<string, Record<string, Record<string, string>>>;
      for (const [prompt, screens] of Object.entries(en)) {
        for (const [screen, keys] of Object.entries(screens)) {
          assert.deepEqual(Object.keys(catalog[prompt]?.[screen] ?? {}).sort(), Object.keys(keys).sort(), `${language} ${prompt}/${screen}`);
          for (const [key, text] of Object.entries(keys)) {
            const translated = catalog[prompt]![screen]![key]!;
            assert.notEqual(translated.trim(), '', `${language} ${prompt}/${screen}/${key}`);
            assert.deepEqual(variables(translated), variables(text), `${language} ${prompt}/${screen}/${key} keeps its variables`);
          }
        }
      }
    }
  });

  it('the other languages are translations, not copies of English', () => {
    for (const language of ['fr', 'de', 'es'] as const) {
      assert.notEqual(CATALOGS[language].login.login.buttonText, CATALOGS.en.login.login.buttonText);
      assert.notEqual(CATALOGS[language].signup.signup.title, CATALOGS.en.signup.signup.title);
    }
  });
});

describe('chooseLanguage', () => {
  const all = [...LANGUAGES];
  it('ui_locales first, then Accept-Language by quality, then the first enabled language', () => {
    assert.equal(chooseLanguage(all, 'fr', 'de'), 'fr');
    assert.equal(chooseLanguage(all, 'ja es-MX', 'de'), 'es', 'the first supported of ui_locales, a region matching its language');
    assert.equal(chooseLanguage(all, 'ja', 'it, de;q=0.8, fr;q=0.9'), 'fr', 'by quality');
    assert.equal(chooseLanguage(all, undefined, 'de;q=0, es;q=0.1'), 'es', 'q=0 is refused');
    assert.equal(chooseLanguage(all, undefined, undefined), 'en');
    assert.equal(chooseLanguage(['de', 'fr'], 'en', 'en-US'), 'de', 'outside the enabled ones: the first enabled');
    assert.equal(chooseLanguage(['de', 'fr'], undefined, 'FR-be'), 'fr');
  });

  it('enabled_locales: kept to the languages with texts; all four when unset or none known', () => {
    assert.deepEqual(enabledLanguages(undefined), all);
    assert.deepEqual(enabledLanguages(['ja']), all);
    assert.deepEqual(enabledLanguages(['es', 'ja', 'es', 'en']), ['es', 'en']);
    assert.deepEqual(enabledLanguages('fr'), all);
  });
});

describe('customTextProblem', () => {
  it('accepts the screens and keys the pages render; names the first that is not', () => {
    assert.equal(customTextProblem('login', { login: { title: 'Hi', buttonText: 'Go' } }), undefined);
    assert.equal(customTextProblem('login', {}), undefined);
    assert.match(customTextProblem('login', { signup: {} })!, /unknown screen 'signup'/);
    assert.match(customTextProblem('login', { login: { __proto__x: 'x' } })!, /unknown key/);
    assert.match(customTextProblem('login', { login: { toString: 'x' } })!, /unknown key 'toString'/);
    assert.match(customTextProblem('login', { login: { title: ['x'] } })!, /must be a string/);
    assert.match(customTextProblem('login', { login: 'x' })!, /must be an object/);
    assert.match(customTextProblem('login', null)!, /must be an object/);
  });
});
