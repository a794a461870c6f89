/**
 * `ergraph er --app <module> [--name <app>] [--format mermaid|dot|json|svg]`: the ER picture of an
 * app's diagram (svg: the drawing the `/er` page shows, without its GraphiQL links). Use-case services are drawn too when the module exports them as `services`
 * (a `UseCaseAppConfig` or the service classes).
 */
import type { ErDiagram } from '../src/er/diagram.js';
import type { ErFormat } from '../src/picture/index.js';
import { EXIT, type CliIO } from './io.js';
import { CliError, loadAppModule, pickApp, servicesIn } from './load-apps.js';

export interface ErArgs {
  app: string;
  name?: string;
  format: ErFormat | 'svg';
}

export async function erCommand(args: ErArgs, io: CliIO): Promise<number> {
  const { apps, exports } = await loadAppModule(args.app, io.cwd);
  const app = pickApp(apps, args.name, args.app);
  const diagram = (app.handler as { diagram?: ErDiagram }).diagram;
  if (!diagram?.entityInfos) throw new CliError(`app ${app.name} has no ER diagram: its handler is not an ergraph GraphQLHandler`);
  // The picture is read with the copy of ergraph the app module imported: operations and subsets
  // are recorded per copy, and a checkout can hold two (this CLI built in dist/, the module's
  // 'ergraph' mapped to src/ by tsconfig paths). For an installed package both are the same.
  const { erPicture, erSvg, formatErPicture } = (await import('ergraph')) as typeof import('../src/picture/index.js');
  const picture = erPicture(diagram, { services: servicesIn(exports.services, args.app) });
  io.stdout.write(args.format === 'svg' ? erSvg(picture) : formatErPicture(picture, args.format));
  return EXIT.ok;
}
