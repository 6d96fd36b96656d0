/**
 * The checks Discord makes on what a bot sends (limits from Discord's API documentation), so a
 * bot that would be refused by Discord is refused here too, with Discord's error shapes.
 */
import { DiscordError, invalidForm } from './http.ts';

type Problem = { path: Array<string | number>; code: string; message: string };

export const LOCALES = new Set(['id', 'en-US', 'en-GB', 'bg', 'zh-CN', 'zh-TW', 'hr', 'cs', 'da', 'nl', 'fi', 'fr', 'de', 'el', 'hi', 'hu', 'it', 'ja', 'ko', 'lt', 'no', 'pl', 'pt-BR', 'ro', 'ru', 'es-ES', 'es-419', 'sv-SE', 'th', 'tr', 'uk', 'vi']);

/** Message flag: components v2 layout (no content or embeds). */
const IS_COMPONENTS_V2 = 1 << 15;

function maxLen(problems: Problem[], path: Problem['path'], value: unknown, max: number, min = 0) {
  if (value === undefined || value === null) {
    if (min > 0) problems.push({ path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
    return;
  }
  if (typeof value !== 'string') {
    problems.push({ path, code: 'STRING_TYPE_CONVERT', message: 'Could not interpret the value as string.' });
    return;
  }
  const length = [...value].length;
  if (length > max) problems.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
  if (length < min) problems.push({ path, code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` });
}

function checkUrl(problems: Problem[], path: Problem['path'], url: unknown) {
  if (url === undefined || url === null) return;
  if (typeof url !== 'string' || !/^(https?:\/\/|attachment:\/\/)\S+$/.test(url)) {
    problems.push({ path, code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' });
  }
}

function checkEmbeds(problems: Problem[], embeds: any[]) {
  if (embeds.length > 10) problems.push({ path: ['embeds'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' });
  let total = 0;
  embeds.forEach((e, i) => {
    const p = (...rest: Array<string | number>) => ['embeds', i, ...rest];
    if (!e || typeof e !== 'object') return problems.push({ path: p(), code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' });
    maxLen(problems, p('title'), e.title, 256);
    maxLen(problems, p('description'), e.description, 4096);
    maxLen(problems, p('footer', 'text'), e.footer?.text, 2048);
    maxLen(problems, p('author', 'name'), e.author?.name, 256);
    checkUrl(problems, p('url'), e.url);
    checkUrl(problems, p('image', 'url'), e.image?.url);
    checkUrl(problems, p('thumbnail', 'url'), e.thumbnail?.url);
    if (e.color !== undefined && e.color !== null && !(Number.isInteger(e.color) && e.color >= 0 && e.color <= 0xffffff)) {
      problems.push({ path: p('color'), code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 16777215.' });
    }
    if (e.timestamp !== undefined && e.timestamp !== null && Number.isNaN(Date.parse(e.timestamp))) {
      problems.push({ path: p('timestamp'), code: 'DATE_TYPE_PARSE', message: 'Could not parse timestamp. Should be ISO8601.' });
    }
    const fields: any[] = e.fields ?? [];
    if (fields.length > 25) problems.push({ path: p('fields'), code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
    fields.forEach((f, j) => {
      maxLen(problems, p('fields', j, 'name'), f?.name, 256, 1);
      maxLen(problems, p('fields', j, 'value'), f?.value, 1024, 1);
    });
    total += [e.title, e.description, e.footer?.text, e.author?.name, ...fields.flatMap((f) => [f?.name, f?.value])]
      .reduce((n: number, s) => n + (typeof s === 'string' ? [...s].length : 0), 0);
  });
  if (total > 6000) problems.push({ path: ['embeds'], code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' });
}

/** Every component with a custom_id, depth first (rows, sections, containers, labels). */
export function componentsWithIds(components: any[]): any[] {
  const out: any[] = [];
  const walk = (c: any) => {
    if (!c || typeof c !== 'object') return;
    if (typeof c.custom_id === 'string') out.push(c);
    for (const child of c.components ?? []) walk(child);
    if (c.component) walk(c.component);
    if (c.accessory) walk(c.accessory);
  };
  components.forEach(walk);
  return out;
}

function checkButton(problems: Problem[], path: Problem['path'], b: any) {
  if (![1, 2, 3, 4, 5, 6].includes(b.style)) problems.push({ path: [...path, 'style'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4, 5, 6}.' });
  if (b.style === 5) {
    if (!b.url) problems.push({ path: [...path, 'url'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
    checkUrl(problems, [...path, 'url'], b.url);
    if (b.custom_id !== undefined) problems.push({ path: [...path, 'custom_id'], code: 'BUTTON_LINK_CUSTOM_ID', message: 'A link button cannot have a custom id' });
  } else if (b.style !== 6) {
    maxLen(problems, [...path, 'custom_id'], b.custom_id, 100, 1);
    if (b.url !== undefined) problems.push({ path: [...path, 'url'], code: 'BUTTON_URL_NOT_ALLOWED', message: 'Only link buttons can have a URL' });
  }
  maxLen(problems, [...path, 'label'], b.label, 80);
  if (!b.label && !b.emoji && b.style !== 6) problems.push({ path: [...path, 'label'], code: 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', message: 'A button must have a label or an emoji' });
}

function checkComponents(problems: Problem[], components: any[], flags: number) {
  if (!(flags & IS_COMPONENTS_V2)) {
    if (components.length > 5) problems.push({ path: ['components'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' });
    components.forEach((row, i) => {
      if (row?.type !== 1) return problems.push({ path: ['components', i, 'type'], code: 'COMPONENT_LAYOUT_INVALID', message: 'Top-level components must be action rows' });
      const children: any[] = row.components ?? [];
      if (children.length < 1 || children.length > 5) problems.push({ path: ['components', i, 'components'], code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' });
      const selects = children.filter((c) => c?.type >= 3 && c?.type <= 8 && c?.type !== 4);
      if (selects.length && children.length > 1) problems.push({ path: ['components', i, 'components'], code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', message: 'The specified component exceeds the maximum width' });
      children.forEach((c, j) => {
        if (c?.type === 2) checkButton(problems, ['components', i, 'components', j], c);
        else if (c?.type === 4) problems.push({ path: ['components', i, 'components', j, 'type'], code: 'COMPONENT_TYPE_INVALID', message: 'Text inputs are only allowed in modals' });
        else if (selects.includes(c)) maxLen(problems, ['components', i, 'components', j, 'custom_id'], c.custom_id, 100, 1);
      });
    });
  }
  const seen = new Set<string>();
  for (const c of componentsWithIds(components)) {
    if (seen.has(c.custom_id)) problems.push({ path: ['components'], code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: `Component custom id cannot be duplicated: ${c.custom_id}` });
    seen.add(c.custom_id);
  }
}

/**
 * A message as it would be after this create/edit (`merged`): Discord refuses a message past its
 * limits (400 Invalid Form Body) and an empty one (50006).
 */
export function checkMessage(merged: { content?: unknown; embeds?: unknown; components?: unknown; flags?: unknown; attachments?: number }) {
  const problems: Problem[] = [];
  const flags = typeof merged.flags === 'number' ? merged.flags : 0;
  const embeds = merged.embeds ?? [];
  const components = merged.components ?? [];
  if (!Array.isArray(embeds)) problems.push({ path: ['embeds'], code: 'BASE_TYPE_BAD_TYPE', message: 'Must be an array.' });
  if (!Array.isArray(components)) problems.push({ path: ['components'], code: 'BASE_TYPE_BAD_TYPE', message: 'Must be an array.' });
  maxLen(problems, ['content'], merged.content ?? undefined, 2000);
  if (Array.isArray(embeds)) checkEmbeds(problems, embeds);
  if (Array.isArray(components)) checkComponents(problems, components, flags);
  if (flags & IS_COMPONENTS_V2 && (merged.content || (Array.isArray(embeds) && embeds.length))) {
    problems.push({ path: ['content'], code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', message: 'The \'content\' and \'embeds\' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2' });
  }
  if (problems.length) throw invalidForm(problems);
  const empty = !merged.content && !(Array.isArray(embeds) && embeds.length) && !(Array.isArray(components) && components.length) && !merged.attachments;
  if (empty) throw new DiscordError(400, { message: 'Cannot send an empty message', code: 50006 });
}

const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function checkName(problems: Problem[], path: Problem['path'], name: unknown, chatInput: boolean) {
  if (typeof name !== 'string' || (chatInput ? !NAME.test(name) : [...name].length < 1 || [...name].length > 32)) {
    problems.push({ path, code: 'APPLICATION_COMMAND_INVALID_NAME', message: `Command name is invalid` });
  } else if (chatInput && name !== name.toLowerCase()) {
    problems.push({ path, code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid (must be lower case)' });
  }
}

function checkLocalizations(problems: Problem[], path: Problem['path'], map: unknown, each: (p: Problem['path'], v: unknown) => void) {
  if (map === undefined || map === null) return;
  if (typeof map !== 'object') return problems.push({ path, code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
  for (const [locale, value] of Object.entries(map)) {
    if (!LOCALES.has(locale)) problems.push({ path: [...path, locale], code: 'ENUM_TYPE_COERCE', message: `Value "${locale}" is not a valid enum value.` });
    else each([...path, locale], value);
  }
}

const OPTION_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

function checkOptions(problems: Problem[], path: Problem['path'], options: any[], depth: number) {
  if (options.length > 25) problems.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
  const names = new Set<string>();
  const subs = options.filter((o) => o?.type === 1 || o?.type === 2).length;
  if (subs && subs !== options.length) problems.push({ path, code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', message: 'Sub-command and sub-command group option types are mutually exclusive to all other types' });
  let optionalSeen = false;
  options.forEach((o, i) => {
    const p = [...path, i];
    if (!OPTION_TYPES.includes(o?.type)) return problems.push({ path: [...p, 'type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.' });
    checkName(problems, [...p, 'name'], o.name, true);
    if (names.has(o.name)) problems.push({ path: [...p, 'name'], code: 'APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS', message: 'Option name already exists' });
    names.add(o.name);
    maxLen(problems, [...p, 'description'], o.description, 100, 1);
    checkLocalizations(problems, [...p, 'name_localizations'], o.name_localizations, (lp, v) => checkName(problems, lp, v, true));
    checkLocalizations(problems, [...p, 'description_localizations'], o.description_localizations, (lp, v) => maxLen(problems, lp, v, 100, 1));
    if (o.type === 2 && depth > 0) problems.push({ path: [...p, 'type'], code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', message: 'Sub-command groups can not be nested' });
    if (o.type === 1 || o.type === 2) {
      if (o.type === 1 && depth > 1) problems.push({ path: [...p, 'type'], code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', message: 'Sub-commands can only be nested one group deep' });
      checkOptions(problems, [...p, 'options'], o.options ?? [], depth + 1);
      return;
    }
    if (o.required) {
      if (optionalSeen) problems.push({ path: [...p, 'required'], code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', message: 'Required options must be placed before non-required options' });
    } else optionalSeen = true;
    if (o.autocomplete && o.choices?.length) problems.push({ path: [...p, 'autocomplete'], code: 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES', message: 'Autocomplete can not be enabled if choices are present' });
    if (o.autocomplete && ![3, 4, 10].includes(o.type)) problems.push({ path: [...p, 'autocomplete'], code: 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID', message: 'Autocomplete is only allowed for string, integer and number options' });
    checkChoices(problems, [...p, 'choices'], o.choices ?? [], o.type);
    checkRange(problems, p, o);
  });
}

/** min_value/max_value: only on integer and number options, numbers within ±2^53, min not above max. */
function checkRange(problems: Problem[], path: Problem['path'], o: any) {
  const bound = 2 ** 53;
  for (const k of ['min_value', 'max_value'] as const) {
    const v = o[k];
    if (v === undefined || v === null) continue;
    if (o.type !== 4 && o.type !== 10) problems.push({ path: [...path, k], code: 'APPLICATION_COMMAND_OPTION_MIN_MAX_VALUE_INVALID', message: 'Only integer and number options may have min_value and max_value' });
    else if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > bound || (o.type === 4 && !Number.isInteger(v))) {
      problems.push({ path: [...path, k], code: 'NUMBER_TYPE_COERCE', message: `Value "${v}" is not ${o.type === 4 ? 'int' : 'a number'}.` });
    }
  }
  if (typeof o.min_value === 'number' && typeof o.max_value === 'number' && o.min_value > o.max_value) {
    problems.push({ path: [...path, 'min_value'], code: 'APPLICATION_COMMAND_OPTION_MIN_MAX_VALUE_INVALID', message: 'min_value must be less than or equal to max_value' });
  }
}

export function checkChoices(problems: Problem[], path: Problem['path'], choices: any[], type: number) {
  if (choices.length > 25) problems.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
  choices.forEach((c, j) => {
    maxLen(problems, [...path, j, 'name'], c?.name, 100, 1);
    checkLocalizations(problems, [...path, j, 'name_localizations'], c?.name_localizations, (lp, v) => maxLen(problems, lp, v, 100, 1));
    const v = c?.value;
    if (type === 3) maxLen(problems, [...path, j, 'value'], v, 100, 1);
    else if ((type === 4 && !Number.isInteger(v)) || (type === 10 && typeof v !== 'number')) {
      problems.push({ path: [...path, j, 'value'], code: 'NUMBER_TYPE_COERCE', message: `Value "${v}" is not ${type === 4 ? 'int' : 'a number'}.` });
    }
  });
}

/** One command of a registration; the array form checks names are unique per type. */
export function checkCommands(commands: unknown): asserts commands is any[] {
  if (!Array.isArray(commands)) throw invalidForm([{ path: [], code: 'BASE_TYPE_BAD_TYPE', message: 'Must be an array.' }]);
  const problems: Problem[] = [];
  if (commands.length > 200) problems.push({ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 200 or fewer in length.' });
  const seen = new Set<string>();
  commands.forEach((c, i) => {
    problems.push(...commandProblems(c).map((p) => ({ ...p, path: [i, ...p.path] })));
    const key = `${c?.type ?? 1}:${c?.name}`;
    if (seen.has(key)) problems.push({ path: [i, 'name'], code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: `Application command names must be unique` });
    seen.add(key);
  });
  if (problems.length) throw invalidForm(problems);
}

export function commandProblems(c: any): Problem[] {
  const problems: Problem[] = [];
  if (!c || typeof c !== 'object') return [{ path: [], code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }];
  const type = c.type ?? 1;
  if (![1, 2, 3, 4].includes(type)) problems.push({ path: ['type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4}.' });
  checkName(problems, ['name'], c.name, type === 1);
  checkLocalizations(problems, ['name_localizations'], c.name_localizations, (lp, v) => checkName(problems, lp, v, type === 1));
  if (type === 1) {
    maxLen(problems, ['description'], c.description, 100, 1);
    checkLocalizations(problems, ['description_localizations'], c.description_localizations, (lp, v) => maxLen(problems, lp, v, 100, 1));
    checkOptions(problems, ['options'], c.options ?? [], 0);
  } else if (c.description) {
    problems.push({ path: ['description'], code: 'APPLICATION_COMMAND_INVALID_DESCRIPTION', message: 'User and message commands cannot have a description' });
  }
  const dmp = c.default_member_permissions;
  if (dmp !== undefined && dmp !== null && !(typeof dmp === 'string' && /^\d+$/.test(dmp))) {
    problems.push({ path: ['default_member_permissions'], code: 'NUMBER_TYPE_COERCE', message: `Value "${dmp}" is not snowflake.` });
  }
  return problems;
}

/** A modal (interaction callback type 9). */
export function checkModal(data: any) {
  const problems: Problem[] = [];
  maxLen(problems, ['data', 'custom_id'], data?.custom_id, 100, 1);
  maxLen(problems, ['data', 'title'], data?.title, 45, 1);
  const components: any[] = Array.isArray(data?.components) ? data.components : [];
  if (components.length < 1 || components.length > 5) problems.push({ path: ['data', 'components'], code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 5 in length.' });
  components.forEach((c, i) => {
    const p = ['data', 'components', i];
    if (c?.type === 1) {
      const inputs: any[] = c.components ?? [];
      if (inputs.length !== 1 || inputs[0]?.type !== 4) return problems.push({ path: [...p, 'components'], code: 'COMPONENT_LAYOUT_INVALID', message: 'An action row in a modal holds exactly one text input' });
      checkTextInput(problems, [...p, 'components', 0], inputs[0], true);
    } else if (c?.type === 18) {
      maxLen(problems, [...p, 'label'], c.label, 45, 1);
      maxLen(problems, [...p, 'description'], c.description, 100);
      const inner = c.component;
      if (!inner) problems.push({ path: [...p, 'component'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
      else if (inner.type === 4) checkTextInput(problems, [...p, 'component'], inner, false);
      else maxLen(problems, [...p, 'component', 'custom_id'], inner.custom_id, 100, 1);
    } else if (c?.type !== 10) {
      problems.push({ path: [...p, 'type'], code: 'COMPONENT_TYPE_INVALID', message: 'Modals hold action rows, labels or text displays' });
    }
  });
  const ids = componentsWithIds(components).map((c) => c.custom_id);
  if (new Set(ids).size !== ids.length) problems.push({ path: ['data', 'components'], code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' });
  if (problems.length) throw invalidForm(problems);
}

function checkTextInput(problems: Problem[], path: Problem['path'], input: any, needsLabel: boolean) {
  maxLen(problems, [...path, 'custom_id'], input.custom_id, 100, 1);
  if (![1, 2].includes(input.style)) problems.push({ path: [...path, 'style'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2}.' });
  if (needsLabel) maxLen(problems, [...path, 'label'], input.label, 45, 1);
  else if (input.label !== undefined) problems.push({ path: [...path, 'label'], code: 'TEXT_INPUT_LABEL_IN_LABEL', message: 'A text input inside a label component cannot have its own label' });
  maxLen(problems, [...path, 'placeholder'], input.placeholder, 100);
  maxLen(problems, [...path, 'value'], input.value, 4000);
  for (const k of ['min_length', 'max_length'] as const) {
    const v = input[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= (k === 'min_length' ? 0 : 1) && v <= 4000)) {
      problems.push({ path: [...path, k], code: 'NUMBER_TYPE_MAX', message: 'int value should be between 0 and 4000.' });
    }
  }
}

/** Autocomplete answers (callback type 8). */
export function checkAutocomplete(data: any, optionType: number) {
  const problems: Problem[] = [];
  if (!Array.isArray(data?.choices)) problems.push({ path: ['data', 'choices'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
  else checkChoices(problems, ['data', 'choices'], data.choices, optionType);
  if (problems.length) throw invalidForm(problems);
}
