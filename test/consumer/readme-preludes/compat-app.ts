import { compatApp, type CompatHandler } from 'ergraph/compat';
declare const compat: CompatHandler;
