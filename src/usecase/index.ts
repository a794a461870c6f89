/**
 * ergraph/usecase: HTTP routes generated from use-case service classes, with their OpenAPI
 * document and an offline docs page.
 */
export { UseCaseService, UseCaseAppConfig, FromContext, snakeCase } from './service.js';
export type { UseCaseServiceClass, UseCaseAppOptions, ContextExtractor, RequestContext, ServiceRoute } from './service.js';
export { createUseCaseRouter, type UseCaseRouterOptions } from './router.js';
export { headerContext } from './context.js';
export type { HeaderSource } from './context.js';
export { HttpError } from './errors.js';
export { getReturnType, query, mutation } from '../er/operations.js';
