import * as path from 'node:path';
import {
  createContainer,
  disposeContainer,
  Executor,
  ModuleLoader,
  OfflineProvider,
  type ContainerInstance,
} from 'ideact';

/** Issue 14 item 11: the module root has one name in code, `moduleRoot`, and one default, the cwd. */
const provider = new OfflineProvider();
const containers: ContainerInstance[] = [];
afterEach(() => {
  jest.restoreAllMocks();
  for (const container of containers.splice(0)) disposeContainer(container);
});

describe('moduleRoot: one name and one default (issue 14 item 11)', () => {
  it('createContainer, new Executor and ModuleLoader all take `moduleRoot`, default the current directory', () => {
    const root = path.join(__dirname, 'fixtures');
    const container = createContainer({ tools: [], moduleRoot: root, provider });
    containers.push(container);
    expect(container.get(ModuleLoader).root).toBe(root);
    expect(container.get(Executor).moduleLoader.root).toBe(root);
    expect(new Executor({ provider, tools: [], moduleRoot: root }).moduleLoader.root).toBe(root);
    expect(new ModuleLoader({ moduleRoot: root }).root).toBe(root);
    expect(new ModuleLoader().root).toBe(process.cwd());
    expect(new Executor({ provider, tools: [] }).moduleLoader.root).toBe(process.cwd());
  });

  it('the old ModuleLoader option `root` still works, with one DeprecationWarning (IDEACT_DEP_MODULE_LOADER_ROOT)', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const root = path.join(__dirname, 'fixtures');
    expect(new ModuleLoader({ root }).root).toBe(root);
    expect(new ModuleLoader({ root }).root).toBe(root);
    const deprecations = warn.mock.calls.filter(
      ([, options]) =>
        (options as { code?: string } | undefined)?.code === 'IDEACT_DEP_MODULE_LOADER_ROOT',
    );
    expect(deprecations).toHaveLength(1);
    expect(deprecations[0]![0]).toContain('use `moduleRoot`');
  });
});
