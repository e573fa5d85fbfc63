// The sampler lives in the engine so `seekframe benchmark` and these scripts measure the same way.
export { classify, sampleProcessTree, type ProcessClass, type UsageReport } from '@seekframe/engine';
