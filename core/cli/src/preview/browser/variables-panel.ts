import type { VariableDeclaration } from '@seekframe/composition';
import { h } from './dom.js';

type FieldInput = HTMLInputElement | HTMLSelectElement;

/**
 * The variables form, generated from the composition's declarations. `onChange` gets the values
 * the user set (a partial map over the defaults) once typing pauses.
 */
export class VariablesPanel {
  private declarations: VariableDeclaration[] = [];
  private values: Record<string, unknown> = {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly form: HTMLFormElement,
    private readonly onChange: (values: Record<string, unknown>) => void,
  ) {}

  /** The values the user set (what a render from the panel uses). */
  get current(): Record<string, unknown> {
    return { ...this.values };
  }

  setDeclarations(declarations: VariableDeclaration[]): void {
    this.declarations = declarations;
    // Keep what the user typed for variables that still exist after an edit, unless it is now the default.
    this.values = Object.fromEntries(
      Object.entries(this.values).filter(([id, value]) => {
        const decl = declarations.find((d) => d.id === id);
        return decl !== undefined && JSON.stringify(decl.default) !== JSON.stringify(value);
      }),
    );
    this.render();
  }

  /** Values from elsewhere (the URL): kept for the variables that exist once declarations arrive. */
  setValues(values: Record<string, unknown>): void {
    this.values = { ...values };
    if (this.declarations.length > 0) this.setDeclarations(this.declarations);
  }

  reset(): void {
    this.values = {};
    this.render();
    this.onChange({});
  }

  private render(): void {
    this.form.replaceChildren(...this.declarations.map((d) => this.field(d)));
    if (this.declarations.length === 0) this.form.textContent = 'This composition declares no variables.';
  }

  private field(decl: VariableDeclaration): HTMLLabelElement {
    const input = createInput(decl, decl.id in this.values ? this.values[decl.id] : decl.default);
    input.name = decl.id;
    input.addEventListener(decl.type === 'string' || decl.type === 'number' ? 'input' : 'change', () => {
      this.values[decl.id] = readInput(decl, input);
      clearTimeout(this.timer);
      // Typing reloads the composition once per pause, not once per key.
      this.timer = setTimeout(() => this.onChange({ ...this.values }), 120);
    });
    return h(
      'label',
      { className: 'field', dataset: { variable: decl.id } },
      h('span', {}, decl.label || decl.id),
      h('span', {}, input, decl.type === 'number' && decl.unit ? h('span', { className: 'unit' }, decl.unit) : null),
      decl.description ? h('span', { className: 'hint' }, decl.description) : null,
    );
  }
}

function createInput(decl: VariableDeclaration, current: unknown): FieldInput {
  if (decl.type === 'enum') {
    return h(
      'select',
      {},
      ...decl.options.map((option) =>
        h('option', { value: JSON.stringify(option.value), selected: option.value === current }, option.label),
      ),
    );
  }
  const input = h('input');
  if (decl.type === 'string') {
    Object.assign(input, { type: 'text', value: String(current) });
    if (decl.placeholder) input.placeholder = decl.placeholder;
    if (decl.maxLength) input.maxLength = decl.maxLength;
  } else if (decl.type === 'number') {
    Object.assign(input, { type: 'number', value: String(current), step: decl.step === undefined ? 'any' : String(decl.step) });
    if (decl.min !== undefined) input.min = String(decl.min);
    if (decl.max !== undefined) input.max = String(decl.max);
  } else if (decl.type === 'color') {
    Object.assign(input, { type: 'color', value: String(current) });
  } else if (decl.type === 'boolean') {
    Object.assign(input, { type: 'checkbox', checked: Boolean(current) });
  }
  return input;
}

function readInput(decl: VariableDeclaration, input: FieldInput): unknown {
  if (decl.type === 'number') return input.value === '' ? decl.default : Number(input.value);
  if (decl.type === 'boolean') return (input as HTMLInputElement).checked;
  if (decl.type === 'enum') return JSON.parse(input.value) as unknown;
  return input.value;
}
