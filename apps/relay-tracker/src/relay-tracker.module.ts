import { Module } from '@nestjs/common';
import { SubmissionsHandlers } from './submissions/submissions.handlers';
import { SubmissionsService } from './submissions/submissions.service';

/** Root module of relay-tracker: submissions now; the state machine that drives them is next. */
@Module({ controllers: [SubmissionsHandlers], providers: [SubmissionsService] })
export class RelayTrackerModule {}
