import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyze, chunksOf, identifierParts, nameKey, tokenize } from './tokenize.js';

/** Whether this runtime's ICU segments Thai by dictionary (a Node built with small ICU does not: the analyzer then falls back to character grams). */
const THAI_SEGMENTED =
  typeof Intl.Segmenter === 'function' &&
  [...new Intl.Segmenter('und', { granularity: 'word' }).segment('บริการรีดผ้า')].filter((s) => s.isWordLike).length > 1;
if (!THAI_SEGMENTED)
  console.log('skipped: the Thai segmentation tests need Node with full ICU (Intl.Segmenter with dictionary word breaks)');

describe('identifierParts', () => {
  it('splits on dots, underscores, hyphens and slashes', () => {
    expect(identifierParts('math.factorial')).toEqual(['math', 'factorial']);
    expect(identifierParts('get_current_weather')).toEqual(['get', 'current', 'weather']);
    expect(identifierParts('get-weread-rank')).toEqual(['get', 'weread', 'rank']);
    expect(identifierParts('/root/pdf/report.pdf')).toEqual(['root', 'pdf', 'report', 'pdf']);
  });

  it('splits camelCase, PascalCase and acronyms', () => {
    expect(identifierParts('getWeather')).toEqual(['get', 'weather']);
    expect(identifierParts('Hotels_4_SearchHotel')).toEqual(['hotels', '4', 'search', 'hotel']);
    expect(identifierParts('HTTPServerError')).toEqual(['http', 'server', 'error']);
    expect(identifierParts('api_token_api.APITokenApi.get_api_tokens')).toEqual([
      'api',
      'token',
      'api',
      'api',
      'token',
      'api',
      'get',
      'api',
      'tokens',
    ]);
    expect(identifierParts('utf8Decode')).toEqual(['utf8', 'decode']);
  });

  it('handles non-ASCII letters', () => {
    expect(identifierParts('größeBerechnen')).toEqual(['größe', 'berechnen']);
  });
});

describe('tokenize', () => {
  it('emits stemmed parts and the whole identifier', () => {
    expect(tokenize('get_current_weather')).toEqual(['get', 'current', 'weather', '#get_current_weather']);
    expect(tokenize('math.factorial')).toEqual(['math', 'factori', '#math_factorial']);
    expect(tokenize('getWeather')).toEqual(['get', 'weather', '#get_weather', 'getweath']);
  });

  it('adds the joined word of a camelCase word, so a name written GitHub or arXiv meets github and arxiv', () => {
    expect(tokenize('Search GitHub')).toEqual(['search', 'git', 'hub', '#git_hub', 'github']);
    expect(tokenize('arXiv paper ID')).toEqual(['ar', 'xiv', '#ar_xiv', 'arxiv', 'paper', 'id']);
    // "you" is a stop word: YouTube was read as "tube" alone
    expect(tokenize('a YouTube video')).toContain(tokenize('youtube')[0]);
    expect(tokenize('the iPhone 16')).toContain(tokenize('iphone')[0]);
    // each joiner-free piece of an identifier on its own; a piece of fewer than 4 characters or
    // without a case change adds nothing
    expect(tokenize('get_currentWeather')).toEqual(['get', 'current', 'weather', '#get_current_weather', 'currentweath']);
    expect(tokenize('get_current_weather')).not.toContain('getcurrentweath');
    expect(tokenize('xY')).toEqual(['x', 'y', '#x_y']);
    // off for identifiers read as such (the index's names and parameter names: fromStation is no word)
    expect(analyze('fromStation', { joined: false })).toEqual(['from', 'station', '#from_station']);
    expect(analyze('GitHub', { whole: false })).toEqual(['git', 'hub']);
  });

  it('lower-cases, stems and drops stop words', () => {
    expect(tokenize('Find the Restaurants near me, please!')).toEqual(['find', 'restaur', 'near']);
    expect(tokenize("What's the weather like in Paris?")).toEqual(['weather', 'in', 'pari']);
  });

  it('keeps meaningful short words that generic stop lists drop', () => {
    expect(tokenize('turn on the light')).toContain('on');
    expect(tokenize('no results')).toContain('no');
  });

  it('cuts Chinese into character unigrams and bigrams', () => {
    expect(tokenize('天气预报')).toEqual(['天', '天气', '气', '气预', '预', '预报', '报']);
    const mixed = tokenize('请问北京的天气 weather');
    expect(mixed).toContain('天气');
    expect(mixed).toContain('北京');
    expect(mixed).toContain('weather');
  });

  it('handles Japanese and Korean runs the same way', () => {
    expect(tokenize('検索')).toEqual(['検', '検索', '索']);
    expect(tokenize('검색')).toEqual(['검', '검색', '색']);
  });

  it.runIf(THAI_SEGMENTED)('cuts Thai, Lao, Khmer and Myanmar runs into their words', () => {
    // (written without spaces between words: one run was one term, met only by the same run)
    expect(tokenize('บริการรีดผ้า')).toEqual(['บริการ', 'รีด', 'ผ้า']);
    expect(tokenize('ຊອກຫາ ສະບາຍດີ')).toEqual(['ຊອກຫາ', 'ສະບາຍດີ']);
    expect(tokenize('ស្វែងរកអាកាសធាតុ')).toEqual(['ស្វែងរក', 'អាកាសធាតុ']);
    expect(tokenize('မိုးလေဝသရှာပါ').length).toBeGreaterThan(1);
    // beside Latin words and CJK in the same chunk
    expect(tokenize('get_บริการรีดผ้า天气')).toEqual(['get', 'บริการ', 'รีด', 'ผ้า', '天', '天气', '气']);
    // SARA AM spelled whole, as the segmenter's dictionary has it (NFKC splits it: ทํา ความ)
    expect(tokenize('ทำความสะอาด')).toEqual(['ทำความ', 'สะอาด']);
    // combining marks of another script stay in the run: no term of marks alone
    expect(tokenize('ก\u0301\u0301\u0301\u0301ข').every((t) => /[\u0e00-\u0e7f]/.test(t))).toBe(true);
  });

  it.runIf(THAI_SEGMENTED)('segments a long run a window at a time into the words of one pass', () => {
    // (one pass is superlinear in the run's length; segmentRun reads 256 characters at a time)
    const run = 'ช่วยหาคุณแม่บ้านที่ให้บริการรีดผ้าและทำความสะอาดในกรุงเทพมหานคร'.repeat(60).slice(0, 3900);
    const seg = new Intl.Segmenter('und', { granularity: 'word' });
    const onePass = [...seg.segment(run)].filter((w) => w.isWordLike).map((w) => w.segment);
    expect(onePass.length).toBeGreaterThan(500);
    expect(tokenize(run)).toEqual(onePass);
  });

  it('never throws and returns [] for empty or non-text input', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('   ...---___   ')).toEqual([]);
    expect(tokenize(undefined as unknown as string)).toEqual([]);
    expect(tokenize('🔥🚀 (.*+?^${}()|[]\\)')).toEqual([]);
    expect(tokenize('x'.repeat(100_000)).length).toBe(1);
  });
});

describe('chunksOf', () => {
  // the rule as one pattern (what the analyzer used until it proved quadratic on long runs of
  // marks or joiners): a maximal run of letters, marks, digits and _ . - / holding a letter or digit
  const ONE_PATTERN = /[\p{L}\p{M}\p{N}_.\-/]*[\p{L}\p{N}][\p{L}\p{M}\p{N}_.\-/]*/gu;
  const alphabet = ['a', 'Z', '7', 'é', '\u0301', '\ufe0f', '_', '.', '-', '/', ' ', '’', '天', '😀', ',', '\u200d', '٣', 'ß'];
  it('finds the chunks the one-pattern rule finds, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(chunksOf(text)).toEqual(text.match(ONE_PATTERN) ?? []);
      }),
      { numRuns: 2000 },
    );
  });
  it('reads a run of joiners or marks without a letter as punctuation, however long', () => {
    expect(chunksOf('’' + '-'.repeat(32_000))).toEqual([]);
    expect(chunksOf('\u0301'.repeat(4_000) + 'é')).toEqual(['\u0301'.repeat(4_000) + 'é']);
    const log = (rule: string) => `Summarize this log — it’s from the deploy\n${rule}\nerror: timeout`;
    expect(tokenize(log('-'.repeat(3_900)))).toEqual(tokenize(log('')));
  });
});

describe('nameKey', () => {
  it('normalizes separators and case but keeps every part', () => {
    expect(nameKey('get_current_weather')).toBe('get current weather');
    expect(nameKey('getCurrentWeather')).toBe('get current weather');
    expect(nameKey('Get current weather')).toBe('get current weather');
    expect(nameKey('  the weather ')).toBe('the weather');
  });
});
