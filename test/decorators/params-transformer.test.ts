import { Type } from 'class-transformer';
import {
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  createParamsTransformer,
  getMetadataStorage,
  InvalidParamsError,
  ParamsValidationError,
  Tool,
} from 'ideact';

beforeEach(() => getMetadataStorage().reset());

class Coordinates {
  @IsNumber()
  @Min(-90)
  @Max(90)
  lat!: number;
  @IsNumber()
  lon!: number;
}

function declareWeather() {
  @Tool()
  class WeatherReport {
    @IsString()
    @Length(2, 40)
    city!: string;
    @IsInt()
    @Min(1)
    @Max(14)
    @IsOptional()
    days?: number;
    @ValidateNested()
    @Type(() => Coordinates)
    @IsOptional()
    at?: Coordinates;

    label(): string {
      return `${this.city} (${this.days ?? 1} days)`;
    }
  }
  return WeatherReport;
}

describe('params of explicit calls on class-declared tools', () => {
  it('valid params become a validated instance of the class (nested ones too); meta-fields are dropped', async () => {
    const WeatherReport = declareWeather();
    const transform = createParamsTransformer(WeatherReport, 'weatherReport');
    const params = await transform({
      _tool: 'weatherReport',
      _outputPath: 'state.weather',
      city: 'Paris',
      days: 3,
      at: { lat: 48.8, lon: 2.3 },
    });
    expect(params).toBeInstanceOf(WeatherReport);
    expect((params as unknown as InstanceType<typeof WeatherReport>).label()).toBe(
      'Paris (3 days)',
    );
    expect((params as unknown as InstanceType<typeof WeatherReport>).at).toBeInstanceOf(
      Coordinates,
    );
    expect({ ...params }).toEqual({ city: 'Paris', days: 3, at: { lat: 48.8, lon: 2.3 } });
  });

  it('invalid params fail with ParamsValidationError listing each property path and constraint', async () => {
    const WeatherReport = declareWeather();
    const transform = createParamsTransformer(WeatherReport, 'weatherReport');
    const failure = await Promise.resolve(
      transform({ city: 'P', days: 30, at: { lat: 123, lon: 'east' }, country: 'FR' }),
    ).catch((error: unknown) => error);
    expect(ParamsValidationError.isInstance(failure)).toBe(true);
    const error = failure as ParamsValidationError;
    expect(error.toolName).toBe('weatherReport');
    expect(InvalidParamsError.isInstance(failure)).toBe(true); // one family: the parent catches it
    expect(error.fault).toBe('model');
    expect(error.issues).toEqual([
      {
        path: 'country',
        messages: ['property country should not exist'],
        message: 'property country should not exist',
      },
      {
        path: 'city',
        messages: ['city must be longer than or equal to 2 characters'],
        message: 'city must be longer than or equal to 2 characters',
      },
      {
        path: 'days',
        messages: ['days must not be greater than 14'],
        message: 'days must not be greater than 14',
      },
      {
        path: 'at.lat',
        messages: ['lat must not be greater than 90'],
        message: 'lat must not be greater than 90',
      },
      {
        path: 'at.lon',
        messages: ['lon must be a number conforming to the specified constraints'],
        message: 'lon must be a number conforming to the specified constraints',
      },
    ]);
    expect(error.message).toBe(
      'Invalid params for tool "weatherReport":\n' +
        '- country: property country should not exist\n' +
        '- city: city must be longer than or equal to 2 characters\n' +
        '- days: days must not be greater than 14\n' +
        '- at.lat: lat must not be greater than 90\n' +
        '- at.lon: lon must be a number conforming to the specified constraints\n' +
        'Fix these params so that they match the tool\'s schema and call "weatherReport" again.',
    );
  });

  it('a missing required param is reported', async () => {
    const WeatherReport = declareWeather();
    const transform = createParamsTransformer(WeatherReport, 'weatherReport');
    await expect(Promise.resolve(transform({}))).rejects.toThrow(
      /- city: city must be longer than or equal to 2 characters; city must be a string/,
    );
  });
});

describe('tools without params', () => {
  it('accept empty params and reject any param', async () => {
    @Tool()
    class CurrentTime {}
    const transform = createParamsTransformer(CurrentTime, 'currentTime');
    await expect(Promise.resolve(transform({ _tool: 'currentTime' }))).resolves.toBeInstanceOf(
      CurrentTime,
    );
    await expect(Promise.resolve(transform({ zone: 'UTC' }))).rejects.toThrow(
      '- zone: property zone should not exist',
    );
  });
});
