// Type-level checks shared by defineTool, definePrompt and defineResource: a definition whose parts
// do not fit together fails to typecheck, with the reason in the error.
import type { AnyActorLogic, AnyStateMachine, ContextFrom, EventFromLogic, InputFrom, StateMachine } from 'xstate';
import type { z } from 'zod';
import type { EffectSpec } from './once-effect.ts';
import type { AnswerEvents, AnyQuestions, QuestionKey, QuestionsContext } from './questions.ts';

type IsAny<T> = 0 extends 1 & T ? true : false;

// matching any StateMachine to read one of its type parameters needs `any` in the other places
// biome-ignore-start lint/suspicious/noExplicitAny: see above
type MetaOf<M> = M extends StateMachine<any, any, any, any, any, any, any, any, any, any, any, any, infer TMeta, any, any> ? TMeta : never;
type ActorsOf<M> =
  M extends StateMachine<any, any, any, infer TActor, any, any, any, any, any, any, any, any, any, any, any> ? TActor : never;
// biome-ignore-end lint/suspicious/noExplicitAny: see above

/** The names of the actors given to the machine's `setup({ actors })`. */
type ActorSource<M> = [ActorsOf<M>] extends [never]
  ? never
  : ActorsOf<M> extends { src: infer S extends string }
    ? string extends S
      ? never
      : S
    : never;

/** The input type of one named actor. */
type ActorInput<M, S extends string> = InputFrom<Extract<ActorsOf<M>, { src: S }> extends { logic: infer L } ? L : never>;

/** Effect specs keyed by actor name, each typed with that actor's input. */
export type EffectSpecs<M> = [ActorSource<M>] extends [never]
  ? Record<string, never>
  : { [S in ActorSource<M>]?: EffectSpec<ActorInput<M, S>> };

type Fail<TField extends string, TMessage extends string> = { [K in TField]: TMessage };

type CheckInput<TArgs extends z.ZodObject, M> = [z.output<TArgs>] extends [InputFrom<M>]
  ? unknown
  : Fail<
      'machine',
      "The machine's input type does not accept what the argument schema produces: make types.input in setup() match z.output of the schema."
    >;

type CheckContext<Q, M> = [ContextFrom<M>] extends [QuestionsContext<Q>]
  ? unknown
  : Fail<'questions', "The questions were defined for another context type than the machine's: use defineQuestions<YourMachineContext>().">;

type CheckEvents<Q, M extends AnyActorLogic> = [AnswerEvents<Q>] extends [EventFromLogic<M>]
  ? unknown
  : Fail<
      'machine',
      'The machine does not take the answer events of these questions as typed by their schemas: use types: { events: {} as AnswerEvents<typeof questions> } in setup().'
    >;

type CheckMeta<Q, M> = [QuestionKey<Q>] extends [never]
  ? unknown
  : IsAny<MetaOf<M>['ask' & keyof MetaOf<M>]> extends true
    ? Fail<'machine', 'Type the state meta so asked keys are checked: use types: { meta: {} as AskMeta<typeof questions> } in setup().'>
    : unknown;

/** Everything that must agree between the argument schema, the questions and the machine. */
export type DefinitionChecks<TArgs extends z.ZodObject, Q extends AnyQuestions, M extends AnyStateMachine> = CheckInput<TArgs, M> &
  CheckContext<Q, M> &
  CheckEvents<Q, M> &
  CheckMeta<Q, M>;
