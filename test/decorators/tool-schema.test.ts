import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  Activity,
  Describe,
  getMetadataStorage,
  Imports,
  Module,
  Output,
  OutputPath,
  Tool,
  toolNameOf,
  toolSchema,
  validateJson,
} from 'ideact';
import { camelCase } from '../../src/decorators/tool-schema-builder';

enum Unit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

beforeEach(() => getMetadataStorage().reset());

describe('toolSchema(): params from class-validator decorators', () => {
  it('builds names, types, required, enums, ranges, lengths, arrays and descriptions', () => {
    @Tool({ description: 'Weather forecast for a city. Use it for any weather question.' })
    class WeatherReport {
      @Describe('City name, e.g. Paris')
      @IsString()
      @Length(2, 40)
      city!: string;

      @Describe('How many days ahead')
      @IsInt()
      @Min(1)
      @Max(14)
      @IsOptional()
      days?: number;

      @IsEnum(Unit)
      unit!: Unit;

      @IsIn(['short', 'long'])
      detail!: string;

      @IsArray()
      @IsString({ each: true })
      @MaxLength(20, { each: true })
      @ArrayMinSize(1)
      @ArrayMaxSize(5)
      fields!: string[];

      @IsBoolean()
      @IsOptional()
      alerts?: boolean;
    }

    const schema = toolSchema(WeatherReport);
    expect(schema).toEqual({
      type: 'object',
      description: 'Weather forecast for a city. Use it for any weather question.',
      properties: {
        _tool: { const: 'weatherReport' },
        city: { type: 'string', description: 'City name, e.g. Paris', minLength: 2, maxLength: 40 },
        days: { type: 'integer', description: 'How many days ahead', minimum: 1, maximum: 14 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        detail: { type: 'string', enum: ['short', 'long'] },
        fields: {
          type: 'array',
          items: { type: 'string', maxLength: 20 },
          minItems: 1,
          maxItems: 5,
        },
        alerts: { type: 'boolean' },
      },
      required: ['_tool', 'city', 'unit', 'detail', 'fields'],
    });
    // Property order follows the declaration: the LLM reads params in the order the developer wrote them.
    expect(Object.keys(schema.properties)).toEqual([
      '_tool',
      'city',
      'days',
      'unit',
      'detail',
      'fields',
      'alerts',
    ]);
    expect(Object.keys(schema.properties.city!)[0]).toBe('type');
  });

  it('inlines nested classes and arrays of nested classes (no $ref), with their own required and descriptions', () => {
    class Coordinates {
      @Describe('Latitude in degrees')
      @IsNumber()
      @Min(-90)
      @Max(90)
      lat!: number;

      @IsNumber()
      lon!: number;

      @IsString()
      @IsOptional()
      label?: string;
    }

    @Tool()
    class PlanRoute {
      @ValidateNested()
      @Type(() => Coordinates)
      start!: Coordinates;

      @IsArray()
      @ValidateNested({ each: true })
      @Type(() => Coordinates)
      @ArrayMinSize(1)
      stops!: Coordinates[];
    }

    const coordinates = {
      type: 'object',
      properties: {
        lat: { type: 'number', description: 'Latitude in degrees', minimum: -90, maximum: 90 },
        lon: { type: 'number' },
        label: { type: 'string' },
      },
      required: ['lat', 'lon'],
      additionalProperties: false,
    };
    const schema = toolSchema(PlanRoute);
    expect(schema.properties).toEqual({
      _tool: { const: 'planRoute' },
      start: coordinates,
      stops: { type: 'array', items: coordinates, minItems: 1 },
    });
    expect(schema.required).toEqual(['_tool', 'start', 'stops']);
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });

  it('a class with no params gives only _tool', () => {
    @Tool({ name: 'now' })
    class CurrentTime {}
    expect(toolSchema(CurrentTime)).toEqual({
      type: 'object',
      properties: { _tool: { const: 'now' } },
      required: ['_tool'],
    });
  });

  it('the schema validates good calls and rejects bad ones (it is real JSON Schema)', () => {
    @Tool()
    class Greet {
      @IsString()
      name!: string;
      @IsInt()
      @Min(1)
      @IsOptional()
      times?: number;
    }
    const schema = toolSchema(Greet);
    expect(validateJson(schema, { _tool: 'greet', name: 'Ada' })).toEqual([]);
    expect(validateJson(schema, { _tool: 'greet', name: 'Ada', times: 0 })).not.toEqual([]);
    expect(validateJson(schema, { _tool: 'other', name: 'Ada' })).not.toEqual([]);
    expect(validateJson(schema, { _tool: 'greet' })).not.toEqual([]);
  });
});

describe('toolSchema(): meta-fields (DESIGN §2)', () => {
  class Forecast {
    @Describe('One-line summary')
    @IsString()
    summary!: string;

    @IsNumber()
    @IsOptional()
    temperature?: number;
  }

  it('@Output(Class) sets _output to the class schema; @Output(schema) keeps the JSON Schema as is', () => {
    @Tool()
    @Output(Forecast)
    class Weather {
      @IsString()
      city!: string;
    }
    const outputSchema = {
      type: 'object',
      properties: { verse: { type: 'string' } },
      required: ['verse'],
    };
    @Tool()
    @Output(outputSchema)
    class Poem {
      @IsString()
      topic!: string;
    }

    expect(toolSchema(Weather).properties._output).toEqual({
      type: 'object',
      properties: {
        summary: { type: 'string', description: 'One-line summary' },
        temperature: { type: 'number' },
      },
      required: ['summary'],
    });
    const poem = toolSchema(Poem);
    expect(poem.properties._output).toEqual(outputSchema);
    expect(poem.properties._output).not.toBe(outputSchema);
    expect(poem.required).toEqual(['_tool', 'topic']);
  });

  it('R-TOOL-2 @Activity() on a tool class: _activity const, defaulting to the tool name; "" = latent', () => {
    @Tool()
    @Activity()
    class FetchWeather {}
    @Tool({ name: 'weather' })
    @Activity('openMeteo')
    class WeatherTool {}
    @Tool()
    @Activity('')
    class Latent {}
    expect(toolSchema(FetchWeather).properties._activity).toEqual({ const: 'fetchWeather' });
    expect(toolSchema(WeatherTool).properties._activity).toEqual({ const: 'openMeteo' });
    expect(toolSchema(Latent).properties._activity).toEqual({ const: '' });
  });

  it('R-MOD-3/R-MOD-4 @Module: _module const; _resolution only for upfront', () => {
    @Tool()
    @Module('ideas/composer.json')
    class Composer {}
    @Tool()
    @Module('ideas/lyricist.json', { resolution: 'upfront' })
    class Lyricist {}
    @Tool()
    @Module('anonymous')
    @Output(Forecast)
    class Summarize {}

    expect(toolSchema(Composer).properties).toEqual({
      _tool: { const: 'composer' },
      _module: { const: 'ideas/composer.json' },
    });
    expect(toolSchema(Lyricist).properties._resolution).toEqual({ const: 'upfront' });
    expect(toolSchema(Summarize).properties._module).toEqual({ const: 'anonymous' });
    expect(toolSchema(Summarize).properties._resolution).toBeUndefined();
  });

  it('R-IMP-1 @Imports: static list → const; { choose } → array of enum', () => {
    @Tool()
    @Imports(['input', 'state'])
    class StaticImports {}
    @Tool()
    @Imports({ choose: ['input', 'state', 'profile'] })
    class DynamicImports {}
    expect(toolSchema(StaticImports).properties._imports).toEqual({ const: ['input', 'state'] });
    expect(toolSchema(DynamicImports).properties._imports).toEqual({
      type: 'array',
      items: { enum: ['input', 'state', 'profile'] },
    });
  });

  it('R-OUT-1 @OutputPath: fixed → const; { oneOf } → enum; { anyPath } → string', () => {
    @Tool()
    @OutputPath('state.weather')
    class Fixed {}
    @Tool()
    @OutputPath({ oneOf: ['state.today', 'state.tomorrow'] })
    class Choice {}
    @Tool()
    @OutputPath({ anyPath: true })
    class Free {}
    expect(toolSchema(Fixed).properties._outputPath).toEqual({ const: 'state.weather' });
    expect(toolSchema(Choice).properties._outputPath).toEqual({
      enum: ['state.today', 'state.tomorrow'],
    });
    expect(toolSchema(Free).properties._outputPath).toEqual({ type: 'string' });
  });

  it('all decorators together, in any order', () => {
    @Module('anonymous')
    @Imports(['input'])
    @Tool({ name: 'forecast', description: 'Forecast' })
    @OutputPath('state.forecast')
    @Output(Forecast)
    class AllOfThem {
      @IsString()
      city!: string;
    }
    const schema = toolSchema(AllOfThem);
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['_imports', '_module', '_output', '_outputPath', '_tool', 'city'].sort(),
    );
    expect(schema.required).toEqual(['_tool', 'city']);
    expect(schema.description).toBe('Forecast');
  });

  it('meta decorators are inherited by subclasses that carry their own @Tool', () => {
    @Tool()
    @Module('anonymous')
    @Output(Forecast)
    class Base {
      @IsString()
      city!: string;
    }
    @Tool()
    class Derived extends Base {
      @IsInt()
      days!: number;
    }
    const schema = toolSchema(Derived);
    expect(schema.properties._tool).toEqual({ const: 'derived' });
    expect(schema.properties._module).toEqual({ const: 'anonymous' });
    expect(schema.properties.city).toEqual({ type: 'string' });
    expect(schema.properties.days).toEqual({ type: 'integer' });
    expect(toolSchema(Base).properties.days).toBeUndefined();
  });
});

describe('tool names', () => {
  it('default to the camelCased class name', () => {
    expect(camelCase('WeatherReport')).toBe('weatherReport');
    expect(camelCase('HTTPFetch')).toBe('httpFetch');
    expect(camelCase('URL')).toBe('url');
    expect(camelCase('already')).toBe('already');
    expect(camelCase('A')).toBe('a');
  });

  it('honour static toolName (typed calls) and @Tool({ name }) when they agree', () => {
    @Tool()
    class Lyricist {
      static readonly toolName = 'writeLyrics';
    }
    @Tool({ name: 'compose' })
    class Composer {
      static readonly toolName = 'compose';
    }
    expect(toolNameOf(Lyricist)).toBe('writeLyrics');
    expect(toolSchema(Lyricist).properties._tool).toEqual({ const: 'writeLyrics' });
    expect(toolSchema(Composer).properties._tool).toEqual({ const: 'compose' });
  });

  it('reject @Tool({ name }) that disagrees with static toolName, with potential solutions', () => {
    @Tool({ name: 'a' })
    class Disagrees {
      static readonly toolName = 'b';
    }
    expect(() => toolSchema(Disagrees)).toThrow(
      /@Tool on Disagrees: @Tool\(\{ name: 'a' \}\) disagrees with static toolName = 'b'\.\nPotential solutions:\n- /,
    );
  });
});

describe('metadata storage', () => {
  it('reset() forgets every record, so a class declared before the reset is no longer a tool', () => {
    @Tool()
    @Module('anonymous')
    class Early {}
    expect(getMetadataStorage().tools).toHaveLength(1);
    getMetadataStorage().reset();
    const storage = getMetadataStorage();
    expect(storage.tools).toHaveLength(0);
    expect(storage.modules).toHaveLength(0);
    expect(() => toolSchema(Early)).toThrow(/not decorated with @Tool\(\)/);
  });

  it('is one instance per process (namespaced on globalThis)', () => {
    expect(getMetadataStorage()).toBe(getMetadataStorage());
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('ideact.metadata-storage')]).toBe(
      getMetadataStorage(),
    );
  });
});
