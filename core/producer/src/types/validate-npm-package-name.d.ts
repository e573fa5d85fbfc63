// The package ships no types; this is the part of its API we call.
declare module 'validate-npm-package-name' {
  interface ValidationResult {
    validForNewPackages: boolean;
    validForOldPackages: boolean;
    errors?: string[];
    warnings?: string[];
  }
  function validate(name: string): ValidationResult;
  export default validate;
}
