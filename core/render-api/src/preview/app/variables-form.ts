import type { VariableDeclaration } from './api-client.js';

/**
 * One labelled input per declaration (text with maxlength, number with min/max/step, color,
 * checkbox, select). Returns a getter of the current values; `onChange` gets them after each
 * edit (debounced so typing does not reload the preview on every key).
 */
export function buildVariablesForm(
  form: HTMLFormElement,
  declarations: VariableDeclaration[],
  onChange: (values: Record<string, unknown>) => void,
): () => Record<string, unknown> {
  const readers = new Map<string, () => unknown>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => onChange(read()), 250);
  };
  for (const declaration of declarations) {
    const label = document.createElement('label');
    label.textContent = declaration.label;
    label.htmlFor = `var-${declaration.id}`;
    let field: HTMLInputElement | HTMLSelectElement;
    switch (declaration.type) {
      case 'enum': {
        const select = document.createElement('select');
        for (const option of declaration.options ?? []) {
          const element = document.createElement('option');
          element.value = String(option.value);
          element.textContent = option.label;
          select.append(element);
        }
        select.value = String(declaration.default);
        const values = declaration.options ?? [];
        readers.set(declaration.id, () => values.find((o) => String(o.value) === select.value)?.value ?? declaration.default);
        field = select;
        break;
      }
      case 'boolean': {
        const input = document.createElement('input');
        input.type = 'checkbox';
        input.checked = declaration.default === true;
        readers.set(declaration.id, () => input.checked);
        field = input;
        break;
      }
      case 'number': {
        const input = document.createElement('input');
        input.type = 'number';
        if (declaration.min !== undefined) input.min = String(declaration.min);
        if (declaration.max !== undefined) input.max = String(declaration.max);
        input.step = declaration.step !== undefined ? String(declaration.step) : 'any';
        input.value = String(declaration.default);
        readers.set(declaration.id, () => (input.value === '' ? declaration.default : Number(input.value)));
        field = input;
        break;
      }
      case 'color': {
        const input = document.createElement('input');
        input.type = 'color';
        input.value = String(declaration.default);
        readers.set(declaration.id, () => input.value);
        field = input;
        break;
      }
      default: {
        const input = document.createElement('input');
        input.type = 'text';
        if (declaration.maxLength !== undefined) input.maxLength = declaration.maxLength;
        if (declaration.placeholder) input.placeholder = declaration.placeholder;
        input.value = String(declaration.default);
        readers.set(declaration.id, () => input.value);
        field = input;
      }
    }
    field.id = `var-${declaration.id}`;
    field.name = declaration.id;
    field.addEventListener('input', changed);
    field.addEventListener('change', changed);
    if (declaration.description) field.title = declaration.description;
    form.append(label, field);
  }
  function read(): Record<string, unknown> {
    return Object.fromEntries([...readers].map(([id, get]) => [id, get()]));
  }
  return read;
}
