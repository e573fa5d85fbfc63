import { expect, test } from 'vitest';
import * as composition from '@seekframe/composition';
test('package resolves to source', () => { expect(composition).toBeTypeOf('object'); });
