// Value types in a request. A request often carries the value a tool takes as a parameter without
// naming the parameter: "the forecast for Campbell on March 4th, 2023" holds a date, "move it to
// Thursday at 4:30 PM" a time. Each value type found adds its concept word ("date", "time") to the
// query, so a tool with a `date` parameter or a description about dates gains over one without.

// A calendar date, in English or Chinese:
// - a month name or its abbreviation next to a day number ("March 8th", "8 of March", "Apr. 5");
// - ISO "2023-03-08", numeric "3/8/2023" or "03/08/23";
// - relative days ("today", "tomorrow", "next Wednesday", "last week", "this weekend", "on Friday");
// - Chinese "2023年", "3月8日" / "3月8号", 今天 (today), 明天 (tomorrow), 昨天 (yesterday), 后天 (the day after tomorrow).
const DATE_RE = new RegExp(
  [
    String.raw`\b(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?\s+\d{1,2}(?:st|nd|rd|th)?\b`,
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b`,
    String.raw`\b\d{4}-\d{1,2}-\d{1,2}\b`,
    String.raw`\b\d{1,2}\/\d{1,2}\/\d{2,4}\b`,
    String.raw`\b(?:today|tomorrow|yesterday|tonight)\b`,
    String.raw`\b(?:this|next|last|on)\s+(?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`,
    String.raw`\d{4}年|\d{1,2}月\d{1,2}[日号]|今天|明天|昨天|后天`,
  ].join('|'),
  'i',
);

// A clock time: "4:30", "16:45", "9 pm", "9pm", "11:00 a.m.".
const TIME_RE = /\b\d{1,2}:\d{2}\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])/i;

/** Concept words (as index terms) of the value types a request holds: "date", "time". */
export function valueTypeTerms(query: string): string[] {
  const out: string[] = [];
  if (DATE_RE.test(query)) out.push('date');
  if (TIME_RE.test(query)) out.push('time');
  return out;
}
