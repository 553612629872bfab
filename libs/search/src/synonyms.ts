// Query-side expansion tables. A query word pulls in the other words of its groups at a reduced
// weight (ToolIndexOptions.synonymWeight / relatedWeight). Three tables, all general vocabulary of
// tool catalogs, written from common knowledge of how requests and tool descriptions word the same
// thing (never from a particular query); each table is kept only because the eval dev split
// measured a gain with it (docs/decisions/search-first-stage-ablations.md,
// search-cjk-translation-table.md); groups whose removal cost nothing on either half of the dev
// requests are left out (search-unearned-expansion-groups.md), and so are those that gained on one
// half only or on MetaTool only without holding a dev discovery figure (search-step2-expansion-groups.md):
// - SYNONYMS: words used interchangeably (verbs of CRUD APIs, spelling variants, file formats);
// - RELATED: a topic word and the words that signal the topic (finance: stock, crypto, invest…);
// - CJK_TERMS: two-character Chinese (and a few Korean) words and their English counterparts, so a
//   Chinese or Korean request reaches an English tool and an English request a Chinese description.
import { analyze } from './tokenize.js';

/** Words used interchangeably in requests and tool descriptions. */
export const DEFAULT_SYNONYMS: readonly (readonly string[])[] = [
  // retrieval verbs
  ['find', 'search', 'lookup', 'look', 'query', 'get', 'fetch', 'retrieve', 'list', 'locate'],
  ['show', 'display', 'view', 'get', 'list'],
  ['check', 'verify', 'validate', 'get'],
  // write verbs
  ['create', 'make', 'add', 'new', 'generate', 'build'],
  ['save', 'write', 'store', 'export'],
  ['delete', 'remove', 'erase', 'drop', 'cancel'],
  ['update', 'modify', 'edit', 'change', 'set'],
  ['send', 'post', 'email', 'message'],
  ['buy', 'purchase', 'order', 'shop'],
  ['book', 'reserve', 'reservation', 'booking'],
  ['play', 'stream', 'listen'],
  ['translate', 'translation'],
  ['convert', 'conversion', 'transform', 'exchange'],
  ['calculate', 'compute', 'calculator', 'estimate'],
  ['summarize', 'summary', 'summarise'],
  ['analyze', 'analyse', 'analysis'],
  ['download', 'fetch'],
  ['read', 'open', 'load', 'get'],
  // objects
  ['weather', 'forecast', 'temperature', 'climate'],
  ['movie', 'film', 'cinema'],
  ['song', 'music', 'track', 'audio'],
  ['picture', 'image', 'photo'],
  ['video', 'clip'],
  ['hotel', 'accommodation', 'lodging', 'room'],
  ['flight', 'airline', 'fly', 'plane'],
  ['car', 'vehicle', 'automobile'],
  ['job', 'career', 'employment'],
  ['stock', 'ticker', 'equity'],
  ['money', 'currency', 'cash'],
  ['price', 'cost', 'fee'],
  ['recipe', 'cook', 'cooking', 'dish'],
  ['restaurant', 'dining', 'eat'],
  ['news', 'headline', 'article'],
  ['location', 'place', 'address'],
  ['direction', 'route', 'navigate', 'navigation'],
  ['document', 'doc', 'docx'],
  ['presentation', 'ppt', 'pptx', 'slide', 'powerpoint'],
  ['spreadsheet', 'excel', 'xlsx', 'sheet'],
  ['markdown', 'md'],
  ['chart', 'graph', 'plot', 'diagram'],
  ['time', 'clock'],
  ['website', 'web', 'page', 'url', 'site', 'webpage'],
  ['repository', 'repo'],
  ['mail', 'email', 'inbox'],
  ['number', 'integer', 'digit'],
  ['sort', 'arrange', 'ascending', 'descending'],
  ['biggest', 'largest', 'maximum', 'max'],
  ['smallest', 'minimum', 'min'],
  ['average', 'mean'],
  // arithmetic: "add 17 and 25" for a tool that "returns the sum of two numbers"
  ['sum', 'add', 'addition', 'plus'],
  ['multiply', 'multiplication', 'product'],
  ['subtract', 'subtraction', 'minus'],
  ['divide', 'division', 'quotient'],
  ['monarch', 'king', 'queen', 'emperor', 'sovereign'],
  ['trip', 'travel', 'journey', 'vacation', 'holiday', 'tour'],
];

/** A topic word with the words that usually signal that topic; weaker than a synonym. */
export const DEFAULT_RELATED: readonly (readonly string[])[] = [
  [
    'finance',
    'financial',
    'stock',
    'market',
    'trading',
    'invest',
    'investment',
    'crypto',
    'cryptocurrency',
    'bitcoin',
    'portfolio',
    'dividend',
  ],
  ['travel', 'trip', 'hotel', 'flight', 'tourism', 'tourist', 'destination', 'itinerary', 'sightseeing', 'attraction'],
  ['shopping', 'product', 'buy', 'store', 'deal', 'discount', 'price', 'brand'],
  ['news', 'headline', 'journalism', 'breaking', 'report'],
  ['weather', 'rain', 'sunny', 'snow', 'wind', 'humidity', 'celsius', 'fahrenheit'],
  ['job', 'hire', 'hiring', 'recruit', 'resume', 'salary', 'interview', 'career'],
  ['food', 'recipe', 'meal', 'restaurant', 'diet', 'nutrition', 'calorie'],
  ['health', 'medical', 'medicine', 'doctor', 'symptom', 'disease', 'hospital', 'drug'],
  ['music', 'song', 'album', 'artist', 'playlist', 'band', 'spotify'],
  ['movie', 'film', 'actor', 'director', 'cinema', 'showtime', 'theater'],
  ['house', 'home', 'property', 'real', 'estate', 'apartment', 'rent', 'rental', 'mortgage'],
  ['law', 'legal', 'lawyer', 'attorney', 'court', 'lawsuit', 'statute'],
  ['course', 'learn', 'learning', 'class', 'tutorial', 'education', 'study', 'lesson'],
  ['code', 'coding', 'program', 'programming', 'developer', 'software', 'script'],
  ['research', 'paper', 'academic', 'scholar', 'journal', 'publication', 'study'],
  ['seo', 'keyword', 'ranking', 'traffic', 'visibility', 'optimize'],
  ['map', 'location', 'geocode', 'coordinate', 'latitude', 'longitude', 'nearby'],
  ['sport', 'game', 'team', 'player', 'match', 'score', 'league', 'football', 'soccer', 'basketball'],
  ['game', 'play', 'puzzle', 'chess'],
  ['email', 'inbox', 'message', 'send'],
  ['calendar', 'schedule', 'meeting', 'appointment', 'reminder'],
  ['note', 'todo', 'task', 'reminder'],
  ['file', 'folder', 'directory', 'path'],
  ['image', 'picture', 'photo', 'drawing', 'art'],
  ['translate', 'language', 'english', 'spanish', 'french', 'chinese', 'japanese'],
  ['company', 'business', 'corporation', 'firm', 'enterprise'],
  ['space', 'nasa', 'planet', 'astronomy', 'mars', 'star'],
  ['car', 'vehicle', 'dealer', 'auto', 'automotive'],
  ['charity', 'donate', 'donation', 'nonprofit'],
  ['gift', 'present', 'birthday', 'anniversary'],
  ['podcast', 'episode', 'audio'],
  ['video', 'youtube', 'clip', 'stream'],
  ['fitness', 'workout', 'exercise', 'gym', 'training'],
  ['diet', 'nutrition', 'calorie', 'meal', 'healthy'],
  ['fashion', 'clothing', 'clothes', 'outfit', 'wear', 'dress', 'style', 'apparel'],
  ['beauty', 'cosmetic', 'makeup', 'skincare'],
  ['crypto', 'bitcoin', 'ethereum', 'blockchain', 'nft', 'wallet', 'token'],
  ['loan', 'mortgage', 'credit', 'debt', 'repayment', 'interest'],
  ['sql', 'database', 'table'],
  ['server', 'deploy', 'deployment', 'cloud', 'aws', 'hosting'],
  ['security', 'vulnerability', 'hack', 'scan', 'malware'],
  ['ad', 'advertising', 'marketing', 'campaign', 'promotion'],
  ['writing', 'essay', 'content', 'copywriting', 'blog', 'article'],
  ['rewrite', 'paraphrase', 'rephrase', 'polish', 'proofread', 'grammar'],
  ['earthquake', 'disaster', 'seismic'],
  ['event', 'ticket', 'concert', 'venue', 'festival'],
  ['discount', 'coupon', 'deal', 'sale', 'promo', 'voucher'],
  ['website', 'domain', 'url', 'link'],
];

/** Two-character Chinese words and English words for the same thing (for mixed-language catalogs). */
export const CJK_TERMS: readonly (readonly string[])[] = [
  ['天气', 'weather'],
  ['温度', 'temperature'],
  ['预报', 'forecast'],
  ['搜索', 'search'],
  ['查询', 'query', 'search'],
  ['检索', 'search', 'retrieve'],
  ['获取', 'get', 'fetch'],
  ['创建', 'create'],
  ['删除', 'delete'],
  ['更新', 'update'],
  ['工单', 'ticket'],
  ['车票', 'ticket'],
  ['火车', 'train'],
  ['列车', 'train'],
  ['车站', 'station'],
  ['航班', 'flight'],
  ['酒店', 'hotel'],
  ['新闻', 'news'],
  ['翻译', 'translate'],
  ['地图', 'map'],
  ['地址', 'address'],
  ['文件', 'file'],
  ['文档', 'document'],
  ['图片', 'image'],
  ['视频', 'video'],
  ['音乐', 'music'],
  ['邮件', 'email'],
  ['日历', 'calendar'],
  ['时间', 'time'],
  ['日期', 'date'],
  ['价格', 'price'],
  ['订单', 'order'],
  ['餐厅', 'restaurant'],
  ['菜谱', 'recipe'],
  ['排行', 'rank'],
  ['工作', 'work'],
  ['公司', 'company'],
  ['网页', 'webpage'],
  ['当前', 'current'],
  ['目前', 'current'],
  ['服务器', 'server'],
  ['状态', 'status'],
  ['股票', 'stock'],
  // Korean (Hangul is read in two-syllable grams like Chinese, so a word keeps matching with a
  // particle after it: 뉴스를 holds 뉴스)
  ['뉴스', 'news'],
  ['검색', 'search'],
  ['정보', 'information'],
  ['날씨', 'weather'],
  ['온도', 'temperature'],
  ['인터넷', 'internet'],
  ['번역', 'translate'],
  ['주문', 'order'],
  ['예약', 'reservation'],
  ['파일', 'file'],
  ['음악', 'music'],
  ['이메일', 'email'],
];

/** Stemmed word → stemmed words of all its groups (itself excluded); CJK words stand for their bigrams. */
export function buildSynonymMap(groups: readonly (readonly string[])[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = [...new Set(group.flatMap(termsOf))];
    for (const s of stems) {
      let set = map.get(s);
      if (!set) map.set(s, (set = new Set()));
      for (const o of stems) if (o !== s) set.add(o);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v]]));
}

/** Index terms of one table word: stems of an English word, character bigrams of a CJK word. */
function termsOf(word: string): string[] {
  const terms = analyze(word, { whole: false, stop: false });
  // a CJK word analyzes to unigrams + bigrams; only the bigrams are specific enough to expand
  const bigramsOnly = terms.filter((t) => [...t].length === 2 && /[\p{Script=Han}\p{Script=Hangul}]/u.test(t)); // Han characters
  return bigramsOnly.length > 0 ? bigramsOnly : terms;
}
