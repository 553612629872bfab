/**
 * Value kind "free text": the whole request and search terms.
 */
import { TEXT_SCORES } from './data/scores/text.js';
import { stringParam } from './dispatch.js';
import { type ValueKindModule } from './types.js';

/** Value kind "wholeRequest": the whole request, for free text in the user's own words. */
export const WHOLE_REQUEST_KIND: ValueKindModule = {
  name: 'wholeRequest',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // free text asked for the user's own words: the whole request (mapObject keeps it where it says
    // more than the tool and the parameter do: saysMore)
    if (
      p.semantic === 'text' &&
      p.required &&
      /\b(user'?s?|message|statement|utterance|input|question|query|request|sentence|text)\b/i.test(p.description + ' ' + p.parts.join(' '))
    ) {
      const whole = doc.text.split('\n')[0].trim();
      if (whole) out.push({ param: p, value: whole, score: TEXT_SCORES.wholeRequest.v, ranges: [], kind: 'whole' });
    }
  },
};

/** Value kind "searchPhrase": the request as a search term. */
export const SEARCH_PHRASE_KIND: ValueKindModule = {
  name: 'searchPhrase',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a search term: the request without the words that only ask for a search or name the tool
    if (p.type === 'string' && p.parts.some((x) => /^(query|q|keyword|keywords|search|term|terms|phrase)$/.test(x))) {
      const phrase = searchPhrase(doc.text);
      if (phrase) out.push({ param: p, value: phrase, score: TEXT_SCORES.searchPhrase.v, ranges: [], kind: 'search-phrase' });
    }
  },
};

/**
 * The subject of a search request: the first line without a leading "search for" / "find" /
 * "look up" / "play" (and "song" after "play") or "who is" / "what is" / "tell me about" before a
 * short subject, a clause that names the tool ("using your tools",
 * "with the web search tool", "trigger the web search function; ..."), or asks for a format ("and
 * respond in json"). Undefined when nothing was taken off (the whole request is its own candidate).
 */
function searchPhrase(text: string): string | undefined {
  const line = text.split('\n')[0].trim();
  let q = line;
  // "trigger the web search function; where is beijing"
  const at = q.indexOf(';');
  if (at > 0 && at < 200 && /\b(?:tools?|function|search)\b/i.test(q.slice(0, at))) q = q.slice(at + 1).trim();
  // (every repetition bounded: on long runs of commas or spaces unbounded ones are quadratic)
  q = q.replace(
    /[,\s]{1,4}(?:(?:and|then|finally)\s{1,4}){0,3}(?:respond|reply|answer|return|give\s(?:it|me))\b[^.?!]{0,80}\bjson\b.*$/i,
    '',
  );
  q = q.replace(
    /[,\s]{1,4}(?:(?:and|then|finally)\s{1,4}){0,3}(?:using|use|with|via|through|by)\s{1,4}(?:(?:the|your|a|my)\s{1,4})?(?:[\w-]{1,40}\s{1,4}){0,3}?(?:tools?|function|engine|api)\b.*$/i,
    '',
  );
  const played = /^(?:please\s+)?play\s+/i.test(q);
  q = q.replace(/^(?:please\s+)?(?:search(?:\s+(?:for|about))?|find|look\s+up|lookup|google|play)\s+/i, '');
  // a question about one named subject of at most 6 words: "who is ji sung park?", "what is imjin
  // war", "tell me about X" (not "what is the population of Tokyo", "what is it", "what is AAPL
  // trading at")
  const subject = /^(?:(?:who|what)\s+(?:is|are|was|were)|tell\s+me\s+(?:more\s+)?about)\s+(\S+(?:\s+\S+){0,5})\s*[?.!]*$/i.exec(q);
  if (
    subject &&
    !/^(?:the|a|an|it|its|he|she|they|them|you|your|i|me|my|this|that|these|those|there|here|we|us|our|his|her|their)\b/i.test(
      subject[1],
    ) &&
    !/\b(?:at|in|on|of|for|to|with|about|from|by|up|doing|trading|happening|going)$/i.test(subject[1].replace(/[?.!]+$/, ''))
  )
    q = subject[1];
  if (played) q = q.replace(/\s{1,10}(?:song|track|video|music)$/i, '');
  q = trimEnd(q.replace(/^[\s"'“‘]+/, ''), /[\s"'”’.?!,;:]/);
  // (a phrase that cuts a quoted span in two is no search: "run a web search query 'best pizza"; the quote is a candidate of its own)
  if (/(?:^|\s)['"“‘][^'"”’]*$/.test(q)) return undefined;
  return q !== '' && q !== trimEnd(line, /[\s.?!]/) ? q : undefined;
}

/**
 * `text` without the characters at its end that `char` matches (one character at a time: a regular
 * expression anchored at the end is quadratic on a long run of them before a last word).
 */
function trimEnd(text: string, char: RegExp): string {
  let e = text.length;
  while (e > 0 && char.test(text[e - 1])) e--;
  return text.slice(0, e);
}
