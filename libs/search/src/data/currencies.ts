// Currency tables of the two-currencies cue (request-cues.ts). Source: hand-set from ISO 4217 codes
// of common currencies, not from any one request.

/** ISO code of a currency by the country or region written before its name ("Canadian dollars"). */
export const CURRENCY_BY_REGION: Readonly<Record<string, string>> = {
  us: 'USD',
  'u.s.': 'USD',
  'united states': 'USD',
  american: 'USD',
  canadian: 'CAD',
  australian: 'AUD',
  'new zealand': 'NZD',
  'hong kong': 'HKD',
  singapore: 'SGD',
  singaporean: 'SGD',
  mexican: 'MXN',
  british: 'GBP',
  japanese: 'JPY',
  chinese: 'CNY',
  indian: 'INR',
  swiss: 'CHF',
  korean: 'KRW',
  'south korean': 'KRW',
  'south african': 'ZAR',
  brazilian: 'BRL',
  russian: 'RUB',
  swedish: 'SEK',
  danish: 'DKK',
  norwegian: 'NOK',
};

/** ISO code of a currency name written alone ("euros"); the names that are mostly something else ("pounds", "won") are not here. */
export const CURRENCY_ALONE: Readonly<Record<string, string>> = {
  dollar: 'USD',
  euro: 'EUR',
  yen: 'JPY',
  rupee: 'INR',
  yuan: 'CNY',
  renminbi: 'CNY',
  franc: 'CHF',
  peso: 'MXN',
  ruble: 'RUB',
};

export const SYMBOL_CODES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW' };
