// The npm `workerd` package ships no types; the tests read only its newest compatibility date.
declare module 'workerd' {
  export const compatibilityDate: string;
}
